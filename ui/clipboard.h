// CopyText: the one way panels put text on the clipboard for the selection's
// copy actions. It goes through ImGui (the app's backend hands it to the
// system clipboard) and is also kept here, so headless tests can see what
// was copied without a window system.
#pragma once

#include <string>
#include <string_view>

namespace stepline::ui {

void CopyText(std::string_view text);
// What CopyText copied last in this process ("" before any copy).
const std::string& LastCopiedText();

}  // namespace stepline::ui
