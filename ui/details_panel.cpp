// DetailsPanel drawing (self time from analysis::SliceSelfNs, kept per selection).
#include "ui/details_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "model/analysis/self_time.h"
#include "ui/clipboard.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/track_layout.h"
#include "ui/tooltip.h"

namespace stepline::ui {
namespace {

std::string ArgValueText(const Trace& trace, ArgValue v) {
  switch (v.type) {
    case ArgType::kInt: return std::to_string(v.as_int());
    case ArgType::kUint:
    case ArgType::kDecimalString: return std::to_string(v.as_uint());
    case ArgType::kDouble: {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.6g", v.as_double());
      return buf;
    }
    case ArgType::kBool: return v.as_bool() ? "true" : "false";
    case ArgType::kString:
    case ArgType::kJson: return std::string(trace.str(v.as_string()));
  }
  return {};
}

void LinkedSliceRow(ViewState& state, const char* label, SliceId other, int id) {
  const Trace& trace = *state.trace();
  ImGui::PushID(id);
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  if (ImGui::SmallButton("Go")) state.SelectAndReveal(other);
  ImGui::SameLine();
  const std::string name(trace.str(trace.slices().name()[other.index()]));
  ImGui::TextUnformatted(name.c_str());
  ImGui::PopID();
}

}  // namespace

void DetailsPanel::Draw(ViewState& state) {
  const Trace* trace = state.trace();
  if (trace == nullptr || state.selected.is_none()) {
    ImGui::TextDisabled("Click a slice to see its details.");
    return;
  }
  const SliceId sel = state.selected;
  const SliceTable& s = trace->slices();
  const size_t i = sel.index();
  const TimeNs origin = trace->span().start_ns;
  const std::string name(trace->str(s.name()[i]));
  DrawLineage(state);
  ImGui::TextWrapped("%s", name.c_str());
  DrawCopyButtons(state);
  ImGui::Separator();
  // The launch <-> kernel links and other flows first: what a reader follows
  // next, above the args (a kernel can carry dozens).
  const FlowTable& flows = trace->flows();
  int id = 0;
  auto from = flows.from();
  for (auto it = std::lower_bound(from.begin(), from.end(), sel); it != from.end() && *it == sel; ++it) {
    const size_t f = static_cast<size_t>(it - from.begin());
    LinkedSliceRow(state, flows.kind()[f] == FlowKind::kLaunch ? "launches ->" : "flow to ->", flows.to()[f], id++);
  }
  // The incoming links need the flows by target, which the window indexes
  // after its first frame: until then only the outgoing ones are listed.
  if (const FlowIndex* index = state.data->flows()) {
    const std::vector<uint32_t>& by_to = index->by_to;
    auto to = flows.to();
    auto lo = std::lower_bound(by_to.begin(), by_to.end(), sel, [&](uint32_t f, SliceId v) { return to[f] < v; });
    for (; lo != by_to.end() && to[*lo] == sel; ++lo) {
      LinkedSliceRow(state, flows.kind()[*lo] == FlowKind::kLaunch ? "<- launched by" : "<- flow from",
                     flows.from()[*lo], id++);
    }
  }
  if (id > 0) ImGui::Separator();
  if (ImGui::BeginTable("##details", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    auto row = [](const char* key, const std::string& value) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", key);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value.c_str());
    };
    row("Category", std::string(trace->str(s.category()[i])));
    const TrackId track = s.track()[i];
    row("Track", ProcessLabel(*trace, trace->tracks().process(track)) + " / " + TrackLabel(*trace, track));
    row("Start", FormatDuration(s.start_ns()[i] - origin) + " (" + std::to_string(s.start_ns()[i]) + " ns)");
    row("Duration", FormatDuration(s.dur_ns()[i]));
    // Walks the selection's descendants: once per selection, not per frame.
    if (self_for_ != std::make_pair(state.data->generation, sel.value)) {
      self_for_ = {state.data->generation, sel.value};
      self_ns_ = analysis::SliceSelfNs(*trace, sel);
      children_ = SliceChildCounts(*trace, sel);
    }
    row("Self time", FormatDuration(self_ns_));
    row("Children", std::to_string(children_.direct) + " direct, " + std::to_string(children_.descendants) + " in all");
    if (s.gpu_kind()[i] != GpuKind::kNone) row("GPU kind", std::string(GpuKindName(s.gpu_kind()[i])));
    row("Depth", std::to_string(s.depth()[i]));
    const ArgTable& args = trace->args();
    const ArgSetId set = s.arg_set()[i];
    for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
      row(std::string(trace->str(args.key()[r])).c_str(), ArgValueText(*trace, args.value(r)));
    }
    ImGui::EndTable();
  }
}

// The ancestors, outermost first, as buttons: a click selects one and
// frames it. Long names are cut so the chain fits a few lines.
void DetailsPanel::DrawLineage(ViewState& state) {
  const Trace& trace = *state.trace();
  const std::vector<SliceId> chain = SliceAncestors(trace, state.selected);
  if (chain.empty()) return;
  constexpr size_t kMaxCrumbChars = 28;
  SliceId pick;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(2, ImGui::GetStyle().ItemSpacing.y));
  for (size_t k = 0; k < chain.size(); ++k) {
    std::string label(trace.str(trace.slices().name()[chain[k].index()]));
    if (label.size() > kMaxCrumbChars) label = label.substr(0, kMaxCrumbChars - 3) + "...";
    label += "##crumb" + std::to_string(k);
    if (k > 0) {
      // Wrap before a crumb that would run past the right edge.
      const float w = ImGui::CalcTextSize(label.c_str(), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
      ImGui::SameLine();
      ImGui::TextDisabled(">");
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    if (ImGui::SmallButton(label.c_str())) pick = chain[k];
    if (ImGui::IsItemHovered()) WrappedTooltip("Select and frame this enclosing slice");
  }
  ImGui::PopStyleVar();
  if (!pick.is_none()) {
    const SliceTable& s = trace.slices();
    state.selected = pick;
    state.requests.scroll_to_selection = true;
    state.FitRange(TimeRange{s.start_ns()[pick.index()], s.end_ns(pick)}, 0.05);
  }
}

void DetailsPanel::DrawCopyButtons(const ViewState& state) {
  const Trace& trace = *state.trace();
  const SliceTable& s = trace.slices();
  const size_t i = state.selected.index();
  ImGui::TextDisabled("Copy");
  ImGui::SameLine();
  if (ImGui::SmallButton("name")) CopyText(trace.str(s.name()[i]));
  if (ImGui::IsItemHovered()) WrappedTooltip("The slice's name (also Ctrl+C)");
  ImGui::SameLine();
  if (ImGui::SmallButton("args")) CopyText(SliceArgsJson(trace, state.selected));
  if (ImGui::IsItemHovered()) WrappedTooltip("Every arg as one JSON object");
  ImGui::SameLine();
  if (ImGui::SmallButton("start")) CopyText(std::to_string(s.start_ns()[i]));
  if (ImGui::IsItemHovered()) WrappedTooltip("The start as the trace's timestamp, in ns");
  ImGui::SameLine();
  if (ImGui::SmallButton("duration")) CopyText(std::to_string(s.dur_ns()[i]));
  if (ImGui::IsItemHovered()) WrappedTooltip("The duration in ns");
}

}  // namespace stepline::ui
