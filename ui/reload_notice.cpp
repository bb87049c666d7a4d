// DrawReloadNotice; see reload_notice.h.
#include "ui/reload_notice.h"

#include <imgui.h>

namespace stepline::ui {

ReloadNoticeChoice DrawReloadNotice(const std::string& offer) {
  if (offer.empty()) return ReloadNoticeChoice::kNone;
  ReloadNoticeChoice choice = ReloadNoticeChoice::kNone;
  // The buttons first: after a wrapped message they would sit past the right edge.
  if (ImGui::SmallButton("Reload##changed")) choice = ReloadNoticeChoice::kReload;
  ImGui::SameLine();
  if (ImGui::SmallButton("Dismiss##changed")) choice = ReloadNoticeChoice::kDismiss;
  ImGui::SameLine();
  ImGui::TextWrapped("%s", offer.c_str());
  return choice;
}

}  // namespace stepline::ui
