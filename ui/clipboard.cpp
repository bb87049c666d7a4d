// CopyText; see clipboard.h.
#include "ui/clipboard.h"

#include <imgui.h>

namespace stepline::ui {
namespace {
std::string& LastCopied() {
  static std::string text;
  return text;
}
}  // namespace

void CopyText(std::string_view text) {
  LastCopied() = std::string(text);
  if (ImGui::GetCurrentContext() != nullptr) ImGui::SetClipboardText(LastCopied().c_str());
}

const std::string& LastCopiedText() { return LastCopied(); }

}  // namespace stepline::ui
