// `stepline view FILE --finding F1`: once the shown trace's analysis is
// ready, frames the finding's first piece of evidence on the timeline and
// selects its slice (model/analysis/findings.h numbers the findings as
// `report --format md` prints them).
#pragma once

#include <string>

#include "ui/view_state.h"

namespace stepline::app {

enum class FindingFocus { kWaiting, kShown, kFailed };

// kWaiting until the analysis is ready; then kShown, or kFailed with *error
// (no such finding, or one without evidence).
FindingFocus FocusFinding(const std::string& id, ui::ViewState* state, std::string* error);

}  // namespace stepline::app
