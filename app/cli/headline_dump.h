// `screenshot --headlines FILE`: every headline figure the picture's frames
// drew through ui::HeadlineFigureText, one per line and each once, as
// "view<TAB>subject<TAB>figure<TAB>text", for tests that compare a picture's
// numbers with `report --json` (tests/app/headline_window_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "ui/headline_text.h"

namespace stepline::app {

// Writes `drawn` (duplicates dropped, first-drawn order) to `path`; false
// with *error set when the file cannot be written.
bool WriteHeadlineDump(const std::string& path, const std::vector<ui::DrawnHeadline>& drawn, std::string* error);

}  // namespace stepline::app
