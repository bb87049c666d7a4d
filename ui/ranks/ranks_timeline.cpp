// RanksTimeline (see ranks_timeline.h).
//
// [SECTION] Layout and step windows
// [SECTION] Drawing
#include "ui/ranks/ranks_timeline.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "model/text_format.h"
#include "ui/ranks/hatch.h"
#include "ui/ranks/ranks_detail.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::RankLane;

//-----------------------------------------------------------------------------
// [SECTION] Layout and step windows
//-----------------------------------------------------------------------------

std::optional<std::pair<size_t, RankLane>> RanksTimelineLayout::LaneAt(float y, size_t groups, int* compute_lane) const {
  if (y < 0 || lane_h <= 0) return std::nullopt;
  const size_t g = static_cast<size_t>(y / group_h());
  if (g >= groups) return std::nullopt;
  const int lane = static_cast<int>((y - static_cast<float>(g) * group_h()) / lane_h);
  if (lane >= lanes()) return std::nullopt;  // the gap below the group
  if (compute_lane) *compute_lane = lane < compute_lanes ? lane : 0;
  const RankLane kind = lane < compute_lanes        ? RankLane::kCompute
                        : lane == compute_lanes ? RankLane::kCollective
                                                : RankLane::kHost;
  return std::pair{g, kind};
}

int RanksComputeLanes(std::span<const analysis::RankSummary> ranks) {
  size_t most = 1;
  for (const analysis::RankSummary& r : ranks) most = std::max(most, r.lanes.compute_streams.size());
  return static_cast<int>(std::min(most, analysis::kRankStreamLanes));
}

TimeRange RanksStepView(std::span<const analysis::RankSummary> ranks, const analysis::RanksAnalysis& analysis,
                        size_t step, TimeNs* origin) {
  std::optional<TimeRange> w = analysis::AlignedStepWindow(ranks, analysis, step, origin);
  if (!w) {
    for (const analysis::RankRow& row : analysis.ranks) {
      if (row.input >= ranks.size()) continue;
      const TimeRange s{ranks[row.input].span.start_ns - row.clock_offset_ns,
                        ranks[row.input].span.end_ns - row.clock_offset_ns};
      w = w ? TimeRange{std::min(w->start_ns, s.start_ns), std::max(w->end_ns, s.end_ns)} : s;
    }
    if (!w) return {};
    *origin = w->start_ns;
  }
  const DurNs pad = std::max<DurNs>(1, w->duration_ns() * 3 / 100);
  return {w->start_ns - pad, w->end_ns + pad};
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------

namespace {

// The lanes' data colours are fixed (they read on both themes); everything
// around them comes from the palette in use, as on the main timeline.
constexpr uint32_t kLaneColors[analysis::kRankLaneCount] = {theme::kKindKernel, theme::kCategoryCollective,
                                                            theme::kKindHostOp};
constexpr const char* kLaneNames[analysis::kRankLaneCount] = {"compute kernels", "collective kernels", "main thread"};

// A step's edge: the ruler's tick colour, faint over the lanes.
uint32_t StepEdgeColor() { return theme::WithAlpha(theme::kRulerTick, 90); }

// One lane of a rank drawn from its slices (ranks_detail.h): filled in the
// lane's colour like its summary, edged and named when wide enough.
void DrawDetailLane(ImDrawList* dl, const analysis::DetailLane& lane, const std::vector<std::string>& names,
                    const Viewport& view, DurNs offset_ns, float x0, float y0, float y1, uint32_t color) {
  const float s = UiScale();
  const float font_px = std::max(6.f, y1 - y0);
  for (const DetailRect& rc : LayoutDetailLane(lane, view, offset_ns)) {
    const ImVec2 a(x0 + rc.x0, y0), b(x0 + rc.x1, y1);
    dl->AddRectFilled(a, b, color);
    if (rc.slices != 1 || rc.x1 - rc.x0 < 4 * s) continue;
    dl->AddRect(a, b, theme::kSliceBorder);
    if (rc.x1 - rc.x0 < 20 * s) continue;
    const std::string& name = names[lane.name[rc.row]];
    const ImVec4 clip(a.x + 1, a.y, b.x - 1, b.y);
    dl->AddText(ImGui::GetFont(), font_px, ImVec2(std::max(a.x, x0) + 2 * s, y0 - 0.5f), theme::kSliceText, name.data(),
                name.data() + name.size(), 0.f, &clip);
  }
}

RanksTimelineLayout ScaledLayout(int compute_lanes) {
  const float s = UiScale();
  RanksTimelineLayout l;
  l.compute_lanes = compute_lanes;
  l.ruler_h *= s;
  l.lane_h *= s;
  l.group_gap *= s;
  return l;
}

}  // namespace

void RanksTimeline::ShowStep(int step, std::optional<TimeRange> since_step_start) {
  step_ = std::max(0, step);
  fitted_step_ = -1;
  pending_range_ = since_step_start;
}

void RanksTimeline::Refresh(const RanksViewInput& input, float width) {
  if (for_ != input.analysis) {
    instances_ = analysis::AlignInstances(input.ranks, *input.analysis);
    for_ = input.analysis;
    selected_.reset();
    fitted_step_ = -1;
    scroll_y_ = 0;
  }
  viewport_.width_px = std::max(1.f, width);
  if (fitted_step_ != step_) {
    viewport_.Fit(RanksStepView(input.ranks, *input.analysis, static_cast<size_t>(step_), &origin_ns_));
    fitted_step_ = step_;
    if (pending_range_) {
      viewport_.Fit({origin_ns_ + pending_range_->start_ns, origin_ns_ + pending_range_->end_ns});
      pending_range_.reset();
    }
  }
}

void RanksTimeline::Draw(const RanksViewInput& input, float width, float height) {
  if (!input.analysis || input.analysis->ranks.empty() || height < 40) return;
  const float s = UiScale();
  const float label_w = 74.f * s;
  Refresh(input, width - label_w);
  int64_t max_steps = 0;
  bool summarized = false;
  for (const analysis::RankSummary& r : input.ranks) {
    max_steps = std::max<int64_t>(max_steps, static_cast<int64_t>(r.lanes.steps.size()));
    summarized = summarized || !r.lanes.empty();
  }
  ImGui::TextDisabled("Timeline per rank, aligned clocks (wait filled orange and hatched). Align on step");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(90.f * s);
  if (ImGui::InputInt("##ranks_step", &step_))
    step_ = static_cast<int>(std::clamp<int64_t>(step_, 0, std::max<int64_t>(0, max_steps - 1)));
  ImGui::SameLine();
  if (ImGui::SmallButton("Fit step")) fitted_step_ = -1;
  ImGui::SameLine();
  if (selected_ && *selected_ < instances_.instances.size()) {
    const analysis::InstanceTiming& t = instances_.instances[*selected_];
    const size_t last = static_cast<size_t>(std::max_element(t.arrival.begin(), t.arrival.end()) - t.arrival.begin());
    const TimeNs first = *std::min_element(t.arrival.begin(), t.arrival.end());
    ImGui::Text("%s%s%s #%lld: rank %d arrives last, %s after the first", t.name.c_str(), t.group.empty() ? "" : " ",
                t.group.c_str(), static_cast<long long>(t.key), input.ranks[last].rank,
                text::FormatDuration(t.last_arrival - first).c_str());
  } else {
    ImGui::TextDisabled(summarized ? "Click a collective to outline it on every rank."
                                   : "No busy summary: ranks read from reports have none; open the traces.");
  }
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float region_h = std::max(20.f, height - ImGui::GetFrameHeightWithSpacing());
  const RanksTimelineLayout layout = ScaledLayout(RanksComputeLanes(input.ranks));
  const float plot_w = width - label_w;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  // The ruler: time since the chosen step's start on the lowest rank.
  const float x0 = p.x + label_w;
  dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x0 + plot_w, p.y + layout.ruler_h), theme::kRulerBackground);
  for (const RulerTick& tick : ComputeRulerTicks(viewport_, origin_ns_, 90.0 * s)) {
    const float x = x0 + static_cast<float>(tick.x_px);
    dl->AddLine(ImVec2(x, p.y + (tick.major ? 0 : layout.ruler_h * 0.6f)), ImVec2(x, p.y + layout.ruler_h),
                theme::kRulerTick);
    if (tick.major) dl->AddText(ImVec2(x + 3 * s, p.y + 2 * s), theme::kRulerText, tick.label.c_str());
  }
  // The lanes: one invisible button takes the wheel, drags and clicks.
  const float lanes_top = p.y + layout.ruler_h;
  const float lanes_h = std::max(1.f, region_h - layout.ruler_h);
  lanes_left_ = x0;
  lanes_top_ = lanes_top;
  ImGui::SetCursorScreenPos(ImVec2(p.x, lanes_top));
  ImGui::InvisibleButton("##ranks_lanes", ImVec2(width, lanes_h));
  const ImGuiIO& io = ImGui::GetIO();
  const size_t groups = input.analysis->ranks.size();
  if (ImGui::IsItemHovered() && io.MouseWheel != 0.f) {
    if (io.KeyShift) {
      scroll_y_ -= io.MouseWheel * layout.group_h();
    } else {
      viewport_.ZoomAround(std::clamp(io.MousePos.x - x0, 0.f, plot_w), std::pow(1.25, io.MouseWheel));
    }
  }
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    viewport_.Pan(io.MouseDelta.x);
    scroll_y_ -= io.MouseDelta.y;
  }
  int compute_lane = 0;
  const auto lane = layout.LaneAt(io.MousePos.y - lanes_top + scroll_y_, groups, &compute_lane);
  if (ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 9.f * s * s) {
    selected_.reset();
    if (lane && io.MousePos.x >= x0) {
      const size_t rank = input.analysis->ranks[lane->first].input;
      const DurNs slop = static_cast<DurNs>(4.0 * s / viewport_.px_per_ns());
      selected_ = analysis::InstanceAt(instances_, input.ranks, rank, viewport_.XToTime(io.MousePos.x - x0), slop);
    }
  }
  scroll_y_ = std::clamp(scroll_y_, 0.f, std::max(0.f, static_cast<float>(groups) * layout.group_h() - lanes_h));
  // Detail for the rows on screen when zoomed in past their summaries.
  if (input.details) {
    const size_t first_row = static_cast<size_t>(scroll_y_ / layout.group_h());
    const size_t end_row = static_cast<size_t>((scroll_y_ + lanes_h) / layout.group_h()) + 1;
    input.details->Want(RanksToLoad(input, viewport_, first_row, end_row, input.details->budget()));
  }
  const bool over_rank = ImGui::IsItemHovered() && lane && io.MousePos.x >= p.x &&
                         input.analysis->ranks[lane->first].input < input.ranks.size();
  if (over_rank && input.details) {
    const size_t r = input.analysis->ranks[lane->first].input;
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Right)) {
      menu_input_ = r;
      ImGui::OpenPopup("##rank_detail_menu");
    }
    if (ImGui::IsKeyPressed('L', false) && RankHasTrace(input, r)) input.details->Load(r);
  }
  ContextMenu(input);
  if (over_rank && !ImGui::IsItemActive() && io.MousePos.x >= x0) {
    const int li = lane->second == RankLane::kCompute      ? compute_lane
                   : lane->second == RankLane::kCollective ? layout.compute_lanes
                                                            : layout.compute_lanes + 1;
    Tooltip(input, lane->first, li, compute_lane, viewport_.XToTime(io.MousePos.x - x0));
  }
  dl->PushClipRect(ImVec2(p.x, lanes_top), ImVec2(p.x + width, lanes_top + lanes_h), true);
  DrawGroups(input, p.x, lanes_top - scroll_y_, width, lanes_h + scroll_y_);
  dl->PopClipRect();
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + region_h));
  ImGui::Dummy(ImVec2(width, 0));
}

void RanksTimeline::Tooltip(const RanksViewInput& input, size_t g, int li, int compute_lane, TimeNs aligned_t) {
  const float s = UiScale();
  const analysis::RankRow& row = input.analysis->ranks[g];
  const analysis::RankSummary& r = input.ranks[row.input];
  const TimeNs t = aligned_t + row.clock_offset_ns;  // the rank's own clock
  const int cl = RanksComputeLanes(input.ranks);
  const RankLane kind = li < cl ? RankLane::kCompute : li == cl ? RankLane::kCollective : RankLane::kHost;
  const size_t l = static_cast<size_t>(kind);
  const DurNs slop = static_cast<DurNs>(4.0 * s / viewport_.px_per_ns());
  std::string instance;
  if (kind == RankLane::kCollective) {
    if (auto k = analysis::InstanceAt(instances_, input.ranks, row.input, aligned_t, slop)) {
      const analysis::InstanceTiming& it = instances_.instances[*k];
      const analysis::InstanceSpan sp = analysis::SpanOnRank(instances_, input.ranks, *k, row.input);
      instance = "\n" + it.name + " #" + std::to_string(it.key) + ": arrives " +
                 text::FormatDuration(sp.arrival - it.median_arrival) + " after the median, waits " +
                 text::FormatDuration(sp.wait_end - sp.arrival) + ", transfers " +
                 text::FormatDuration(sp.end - sp.wait_end) + "\nclick: outline it on every rank";
    }
  }
  // A compute lane of one stream names it and reads its bins.
  const std::vector<analysis::StreamLane>& streams = r.lanes.compute_streams;
  const bool by_stream = kind == RankLane::kCompute && !streams.empty();
  const analysis::StreamLane* stream =
      by_stream && static_cast<size_t>(compute_lane) < streams.size() ? &streams[static_cast<size_t>(compute_lane)]
                                                                       : nullptr;
  const std::string lane_name = kind == RankLane::kHost ? r.lanes.host_thread : stream ? stream->name : "";
  const std::string where = "rank " + std::to_string(r.rank) + ", " + kLaneNames[l] +
                            (lane_name.empty() ? "" : " " + lane_name);
  const std::string since = text::FormatDuration(aligned_t - origin_ns_) + " since the step start";
  const bool coarse = SummaryTooCoarse(viewport_, r.lanes);
  if (coarse && input.details) {
    if (std::shared_ptr<const analysis::RankDetail> detail = input.details->Detail(row.input)) {
      const analysis::DetailLane* dlane = DetailLaneOf(*detail, li, cl);
      const std::optional<uint32_t> i = dlane ? DetailRowAt(*dlane, t, slop) : std::nullopt;
      if (i) {
        const std::string& track = detail->names[dlane->track[*i]];
        WrappedTooltip("%s\n%s\nrank %d, %s (%s)\n%s%s", detail->names[dlane->name[*i]].c_str(),
                          text::FormatDuration(dlane->end_ns[*i] - dlane->start_ns[*i]).c_str(), r.rank, track.c_str(),
                          kLaneNames[l], since.c_str(), instance.c_str());
      } else {
        WrappedTooltip("%s: nothing here\n%s%s", where.c_str(), since.c_str(), instance.c_str());
      }
      return;
    }
  }
  const DurNs px = static_cast<DurNs>(1.0 / viewport_.px_per_ns()) + 1;
  const float busy = stream      ? r.lanes.BusyIn(stream->busy, t, t + px)
                     : by_stream ? 0.f
                                 : r.lanes.BusyIn(kind, t, t + px);
  // Why this rank shows its summary.
  std::string state;
  if (!RankHasTrace(input, row.input)) {
    state = "\nsummary only: read from a report (ranks --from-reports), no trace to load detail from";
  } else if (input.details) {
    switch (input.details->State(row.input)) {
      case RankDetailState::kLoading: state = "\nsummary: loading detail..."; break;
      case RankDetailState::kFailed: state = "\nsummary: detail failed to load: " + input.details->Error(row.input); break;
      case RankDetailState::kNotLoaded:
        state = coarse ? "\nsummary: detail not loaded (L or right-click: Load detail)"
                       : "\nsummary (zoom in for each slice)";
        break;
      default: break;
    }
  }
  WrappedTooltip("%s: %.0f%% busy here\n%s%s%s", where.c_str(), 100.0 * busy, since.c_str(), instance.c_str(),
                    state.c_str());
}

void RanksTimeline::ContextMenu(const RanksViewInput& input) {
  if (!ImGui::BeginPopup("##rank_detail_menu")) return;
  if (input.details && menu_input_ < input.ranks.size()) {
    const bool has_trace = RankHasTrace(input, menu_input_);
    const RankDetailState state = input.details->State(menu_input_);
    ImGui::TextDisabled("rank %d", input.ranks[menu_input_].rank);
    if (ImGui::MenuItem("Load detail", "L", state == RankDetailState::kLoaded || state == RankDetailState::kLoading,
                        has_trace && state != RankDetailState::kLoaded && state != RankDetailState::kLoading)) {
      input.details->Load(menu_input_);
    }
    if (!has_trace) ImGui::TextDisabled("read from a report: no trace to load");
  }
  ImGui::EndPopup();
}

void RanksTimeline::DrawGroups(const RanksViewInput& input, float x_left, float y0, float width, float height) {
  const float s = UiScale();
  const float label_w = 74.f * s;
  const RanksTimelineLayout layout = ScaledLayout(RanksComputeLanes(input.ranks));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float x0 = x_left + label_w, plot_w = width - label_w;
  const int columns = static_cast<int>(plot_w);
  const TimeRange vis = viewport_.visible;
  const auto x_of = [&](TimeNs t) {
    return x0 + static_cast<float>(std::clamp(viewport_.TimeToX(t), -4.0, static_cast<double>(plot_w) + 4.0));
  };
  const analysis::RanksAnalysis& a = *input.analysis;
  for (size_t g = 0; g < a.ranks.size(); ++g) {
    const float gy = y0 + static_cast<float>(g) * layout.group_h();
    if (gy > y0 + height) break;
    if (gy + layout.group_h() < y0 + scroll_y_) continue;  // above the visible part
    const analysis::RankRow& row = a.ranks[g];
    if (row.input >= input.ranks.size() || row.input >= instances_.of_collective.size()) continue;
    const analysis::RankSummary& r = input.ranks[row.input];
    const DurNs off = row.clock_offset_ns;
    const bool straggler = a.straggler && a.straggler->row == g;
    const std::string label = "rank " + std::to_string(r.rank) + (straggler ? " *" : "");
    const float group_lanes_h = static_cast<float>(layout.lanes()) * layout.lane_h;
    // Zoomed in past its summary: its slices when loaded, else the summary
    // labelled as such under the rank (and why: loading, no trace, failed).
    const bool coarse = SummaryTooCoarse(viewport_, r.lanes);
    const std::shared_ptr<const analysis::RankDetail> detail =
        coarse && input.details ? input.details->Detail(row.input) : nullptr;
    const char* status = nullptr;
    bool loading = false;
    if (coarse && !detail) {
      const RankDetailState st = input.details && RankHasTrace(input, row.input) ? input.details->State(row.input)
                                 : RankHasTrace(input, row.input)                ? RankDetailState::kNotLoaded
                                                                                 : RankDetailState::kNoTrace;
      loading = st == RankDetailState::kLoading;
      status = st == RankDetailState::kNoTrace ? "no trace" : st == RankDetailState::kFailed ? "failed" : "summary";
    }
    const float label_y = status ? gy : gy + (group_lanes_h - ImGui::GetFontSize()) / 2;
    dl->AddText(ImVec2(x_left, label_y), straggler ? theme::kErrorText : theme::kTrackText, label.c_str());
    if (status) dl->AddText(ImVec2(x_left, gy + ImGui::GetFontSize()), theme::kTrackSubText, status);
    // Busy shares, one pixel column at a time, equal neighbours as one rect.
    // Lane li's bins: a compute stream's, the merged compute lane (first
    // compute lane of a rank with one stream), the collective, the main thread.
    const int cl = layout.compute_lanes;
    for (int li = 0; li < layout.lanes(); ++li) {
      const float ly = gy + static_cast<float>(li) * layout.lane_h, lb = ly + layout.lane_h - 1.f;
      dl->AddRectFilled(ImVec2(x0, ly), ImVec2(x0 + plot_w, lb), theme::kTrackBackgroundEven);
      const int l = li < cl ? 0 : li - cl + 1;  // its RankLane
      const std::vector<analysis::StreamLane>& streams = r.lanes.compute_streams;
      const std::vector<uint8_t>* bins = &r.lanes.busy[static_cast<size_t>(l)];
      if (li < cl) {
        bins = !streams.empty() ? (static_cast<size_t>(li) < streams.size() ? &streams[static_cast<size_t>(li)].busy
                                                                            : nullptr)
                                : (li == 0 ? bins : nullptr);
      }
      if (detail) {
        if (const analysis::DetailLane* dlane = DetailLaneOf(*detail, li, cl)) {
          DrawDetailLane(dl, *dlane, detail->names, viewport_, off, x0, ly, lb, kLaneColors[l]);
        }
        continue;
      }
      if (!bins) continue;
      int run_start = 0;
      float run_h = -1;
      for (int x = 0; x <= columns; ++x) {
        float h = -1;
        if (x < columns) {
          const TimeNs t0 = viewport_.XToTime(x) + off, t1 = std::max(t0 + 1, viewport_.XToTime(x + 1) + off);
          h = std::round(r.lanes.BusyIn(*bins, t0, t1) * (layout.lane_h - 1.f) * 2.f) / 2.f;
        }
        if (h == run_h) continue;
        if (run_h > 0) {
          dl->AddRectFilled(ImVec2(x0 + static_cast<float>(run_start), lb - run_h),
                            ImVec2(x0 + static_cast<float>(x), lb), kLaneColors[l]);
        }
        run_start = x;
        run_h = h;
      }
    }
    if (loading) {
      const char* hint = "loading detail...";
      const ImVec2 at(x0 + 6 * s, gy + (group_lanes_h - ImGui::GetFontSize()) / 2);
      const ImVec2 size = ImGui::CalcTextSize(hint);
      dl->AddRectFilled(ImVec2(at.x - 3 * s, at.y), ImVec2(at.x + size.x + 3 * s, at.y + size.y),
                        theme::kToastBackground);
      dl->AddText(at, theme::kToastText, hint);
    }
    // Step edges of this rank.
    for (const analysis::Interval& st : r.lanes.steps) {
      for (TimeNs t : {st.start_ns - off, st.end_ns - off}) {
        if (t < vis.start_ns || t > vis.end_ns) continue;
        dl->AddLine(ImVec2(x_of(t), gy), ImVec2(x_of(t), gy + group_lanes_h), StepEdgeColor());
      }
    }
    // The wait of each matched collective on this rank, over its collective lane.
    const auto& cs = r.collectives;
    auto it = std::lower_bound(cs.begin(), cs.end(), vis.start_ns + off,
                               [](const analysis::CollectiveArrival& c, TimeNs t) { return c.start_ns < t; });
    for (int back = 0; back < 64 && it != cs.begin(); ++back) --it;
    const float cy = gy + static_cast<float>(cl) * layout.lane_h, cb = cy + layout.lane_h - 1.f;
    for (int drawn = 0; it != cs.end() && it->start_ns - off <= vis.end_ns && drawn < 4 * columns; ++it) {
      const size_t ci = static_cast<size_t>(it - cs.begin());
      const uint32_t k = ci < instances_.of_collective[row.input].size() ? instances_.of_collective[row.input][ci]
                                                                         : analysis::kNoInstance;
      if (k == analysis::kNoInstance || it->end_ns - off < vis.start_ns) continue;
      const analysis::InstanceSpan sp = analysis::SpanOnRank(instances_, input.ranks, k, row.input);
      if (sp.wait_end <= sp.arrival) continue;
      ++drawn;
      const ImVec2 wa(x_of(sp.arrival), cy), wb(std::max(x_of(sp.wait_end), x_of(sp.arrival) + 1.f), cb);
      dl->AddRectFilled(wa, wb, theme::kRankWaitFill);
      if (wb.x - wa.x > 6 * s) Hatch(dl, wa, wb, theme::kRankWaitHatch, 6.f * s);
    }
    // The selected instance on this rank: its arrival .. end across the group.
    if (selected_ && *selected_ < instances_.instances.size()) {
      const analysis::InstanceSpan sp = analysis::SpanOnRank(instances_, input.ranks, *selected_, row.input);
      const float xa = x_of(sp.arrival), xb = std::max(x_of(sp.end), xa + 2.f);
      const ImVec2 a(xa, gy - 1), b(xb, gy + group_lanes_h);
      dl->AddRectFilled(a, b, theme::WithAlpha(theme::kSelection, 40));
      dl->AddRect(a, b, theme::WithAlpha(theme::kSelection, 230), 0.f, 0, 1.5f * s);
    }
  }
}

}  // namespace stepline::ui
