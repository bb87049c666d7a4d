// MainView: the frame, the body (overview column, timeline, tabbed tables),
// each panel's right-click menu, solo mode and the caption strip; the menu
// bar, help and status are in main_view_menus.cpp.
//
// [SECTION] Frame
// [SECTION] Body: overview column, timeline, tabbed tables
// [SECTION] Solo mode and caption strip
#include "ui/main_view.h"

#include <imgui.h>
#include <imgui_internal.h>  // GetActiveID / ClearActiveID: Esc leaves the search field

#include <algorithm>
#include <cstring>
#include <utility>

#include "ui/analysis_format.h"
#include "ui/analysis_pending.h"
#include "ui/analysis_tables.h"
#include "ui/tooltip.h"
#include "ui/xla_modules_table.h"
#include "ui/body_layout.h"
#include "ui/input/text_focus.h"
#include "ui/input/test_events.h"
#include "ui/input/key_codes.h"
#include "ui/input/window_keys.h"
#include "ui/caption.h"
#include "ui/notice_strips.h"
#include "ui/search_matches.h"
#include "ui/selection_keys.h"
#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

//-----------------------------------------------------------------------------
// [SECTION] Frame
//-----------------------------------------------------------------------------

ViewRequests MainView::Draw(ViewState& state, const AppStatus& status, QuadRenderer* renderer) {
  ViewRequests req;
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const bool solo = state.pictures.solo != SoloPanel::kNone && state.trace() != nullptr;
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus | (solo ? 0 : ImGuiWindowFlags_MenuBar) |
                                 ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.f);
  ImGui::Begin("Stepline", nullptr, flags);
  ImGui::PopStyleVar();
  caption_strip_.reset();
  analysis_pending_panels_ = 0;
  if (solo) {
    DrawSolo(state, status);
    ImGui::End();
    return req;
  }
  // Typed characters that are shortcuts when no text field has focus. While
  // a dialog is up, the keyboard is its own.
  const bool keys = !status.modal_open;
  if (keys && !io.WantTextInput) {
    for (ImWchar c : io.InputQueueCharacters) {
      if (c == '/') OpenSearch();
      if (c == '?') {
        state.show_help = !state.show_help;
        TestEvent(state.show_help ? "help.open" : "popup.close", state.show_help ? "" : "kind=help");
      }
    }
  }
  if (keys && io.KeyCtrl && ImGui::IsKeyPressed('F', false)) OpenSearch();
  if (keys && io.KeyCtrl && ImGui::IsKeyPressed('O', false)) req.open_dialog = true;
  if (keys && ImGui::IsKeyPressed(keycode::kF12, false)) req.save_screenshot = true;
  HandleTextSizeAndQuitKeys(&req.quit);
  // Esc: the open menu or popup first, then the help window, then the range.
  const bool esc_used = keys && CloseTopPopupOnEsc(&state.show_help);
  if (keys && !esc_used && ImGui::IsKeyPressed(keycode::kEscape, false)) state.range.reset();
  if (keys) HandleHistoryKeys(state);
  if (keys && !io.WantTextInput) req.notice = HandleSelectionKeys(state);  // Ctrl+C, M, Shift+M
  DrawMenuBar(state, status, &req);
  DrawStatus(status, &req);
  if (state.trace() != nullptr) {
    DrawSearchBar(state, keys);
    // Always inside one child, so the panels' ids (tab choice, table sizes)
    // do not change when the caption strip is toggled.
    const float caption_h = state.pictures.show_caption ? CaptionHeight() : 0.f;
    ImGui::BeginChild("##body", ImVec2(0, -caption_h), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    DrawBody(state, status, renderer, &req);
    ImGui::EndChild();
    if (state.pictures.show_caption) DrawCaption(state, status);
  } else if (!status.loading) {
    ImGui::TextDisabled("Drop a trace file on this window, or use File > Open (Ctrl+O).");
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false) && status.loading) req.cancel_load = true;
  ImGui::End();
  DrawHelp(state);
  // The overview's MFU and samples/s tiles and View > Efficiency settings open it.
  if (std::exchange(state.requests.efficiency_settings, false) && state.data && state.data->analysis_ready) {
    efficiency_settings_.Open(state.data->efficiency, state.data->analysis.efficiency);
  }
  if (!state.data) efficiency_settings_.Close();
  req.efficiency = efficiency_settings_.Draw();
  if (state.trace() != nullptr) DrawDiagnosticsWindow(*state.trace(), status.title, &diagnostics_open_);
  toast_.Draw(status.notice, status.capturing);
  return req;
}

//-----------------------------------------------------------------------------
// [SECTION] Body: overview column, timeline, tabbed tables
//-----------------------------------------------------------------------------

// Left: the overview column; right: the timeline over the tabbed tables.
// Both splitters write their sizes into state.panels (unscaled px).
void MainView::DrawBody(ViewState& state, const AppStatus& status, QuadRenderer* renderer, ViewRequests* req) {
  ImGuiIO& io = ImGui::GetIO();
  const float scale = UiScale();
  const float splitter = 6.f;
  PanelLayout& p = state.panels;
  const float window_w = ImGui::GetMainViewport()->Size.x;
  const bool narrow = NarrowWindow(window_w, LayoutScale());
  narrow_ = narrow;
  if (p.show_overview && narrow && AnalysisPending(state)) {
    ImGui::TextDisabled("Analysing the trace...");
  } else if (p.show_overview && narrow) {
    // A narrow window: the overview's cards as one line, the width to the
    // timeline; the whole overview one click away in a window of its own.
    if (ImGui::SmallButton("Overview")) overview_window_ = !overview_window_;
    if (ImGui::IsItemHovered()) WrappedTooltip("The whole overview in a window (the column shows from 1280 px of width)");
    ImGui::SameLine();
    const std::string line = OverviewSummaryLine(state.data->analysis);
    ImGui::TextUnformatted(FitText(line, ImGui::GetContentRegionAvail().x, ImGui::GetFontSize()).c_str());
    if (ImGui::IsItemHovered()) WrappedTooltip("%s\n(the overview column shows from 1280 px of width)", line.c_str());
  }
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const BodyLayout layout = ComputeBodyLayout(p, window_w, avail.x, avail.y, splitter, scale, LayoutScale());
  overview_column_ = layout.overview_column;
  if (layout.overview_column) {
    DrawLeftColumn(state, avail.y, layout.overview_w, req);
    ImGui::SameLine(0, 0);
    ImGui::InvisibleButton("##vsplitter", ImVec2(splitter, avail.y));
    if (ImGui::IsItemActive()) p.overview_width = (layout.overview_w + io.MouseDelta.x) / scale;
    if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    ImGui::SameLine(0, 0);
  }
  ImGui::BeginGroup();
  const float bottom = layout.bottom_h;
  const float total = layout.timeline_h + bottom + splitter;
  ImGui::BeginChild("##timeline_area", ImVec2(0, total - bottom - splitter), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // What the reader is looking at, before any number: a file that lost data
  // while loading, or the built-in demo.
  DrawDataLossBanner(*state.trace(), &diagnostics_open_);
  if (IsDemoTrace(*state.trace()) && DrawDemoStrip(status.title)) req->open_dialog = true;
  timeline_.Draw(state, renderer);
  const PanelShot timeline_shot = CurrentWindowShot("timeline");
  if (BeginPanelMenu("##timeline_menu")) {
    if (ImGui::MenuItem("Save timeline as PNG")) req->save_panel = timeline_shot;
    if (ImGui::MenuItem("Save window as PNG", "F12")) req->save_screenshot = true;
    ImGui::EndPopup();
  }
  ImGui::EndChild();
  ImGui::InvisibleButton("##splitter", ImVec2(-1, splitter));
  if (ImGui::IsItemActive()) p.bottom_height = (bottom - io.MouseDelta.y) / scale;
  if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeNS);
  const float tables_w = layout.details_beside_tables ? ImGui::GetContentRegionAvail().x - layout.details_w : 0.f;
  ImGui::BeginChild("##bottom", ImVec2(tables_w, 0), true);
  DrawBottomTabs(state, req);
  DrawBottomMenu(state, req);
  ImGui::EndChild();
  if (layout.details_beside_tables) {
    // The details' usual place, the overview column, is not shown: a click
    // on a slice or a table row must still show what it selected.
    ImGui::SameLine(0, 0);
    DrawDetails(state, "##details_beside", 0, req);
  }
  ImGui::EndGroup();
  if (overview_window_ && narrow && p.show_overview && !AnalysisPending(state)) {
    ImGui::SetNextWindowSize(ImVec2(560 * scale, 600 * scale), ImGuiCond_FirstUseEver);
    if (ImGui::Begin("Overview###overview_window", &overview_window_, ImGuiWindowFlags_NoSavedSettings)) {
      overview_.Draw(state);
    }
    ImGui::End();
  }
}

// The selection's details in a child of their own, with the right-click
// Save as PNG: in the overview column, or beside the tables when it is hidden.
void MainView::DrawDetails(ViewState& state, const char* id, float width, ViewRequests* req) {
  ImGui::BeginChild(id, ImVec2(width, 0), true);
  details_.Draw(state);
  const PanelShot details_shot = CurrentWindowShot("details");
  if (BeginPanelMenu("##details_menu")) {
    if (ImGui::MenuItem("Save details as PNG")) req->save_panel = details_shot;
    ImGui::EndPopup();
  }
  ImGui::EndChild();
}

void MainView::DrawLeftColumn(ViewState& state, float height, float width, ViewRequests* req) {
  const float scale = UiScale();
  ImGui::BeginGroup();
  // The selection details keep a fixed share at the bottom of the column.
  const float details_h = std::min(height * 0.3f, 240.f * scale);
  ImGui::BeginChild("##overview", ImVec2(width, height - details_h), true);
  const bool pending = AnalysisPending(state);
  if (pending) {
    DrawAnalysisPending("Steps, the time breakdown and recommendations");
    ++analysis_pending_panels_;
  } else {
    overview_.Draw(state);
  }
  const PanelShot shot = CurrentWindowShot("overview");
  if (BeginPanelMenu("##overview_menu")) {
    if (ImGui::MenuItem("Save overview as PNG")) req->save_panel = shot;
    if (!pending) overview_.MenuItems(state, &req->save_panel, &req->exports);
    ImGui::EndPopup();
  }
  ImGui::EndChild();
  DrawDetails(state, "##details", width, req);
  ImGui::EndGroup();
}

void MainView::DrawBottomTabs(ViewState& state, ViewRequests* req) {
  if (!ImGui::BeginTabBar("##analysis_tabs")) return;
  struct Tab {
    const char* label;
    BottomTab tab;
  };
  static constexpr Tab kTabs[] = {{"Idle gaps", BottomTab::kIdleGaps},
                                  {"Op stats", BottomTab::kOpStats},
                                  {"GPU kernels###kernels", BottomTab::kKernels},
                                  {"Memory", BottomTab::kMemory},
                                  {"Selection", BottomTab::kSelection},
                                  {"Query", BottomTab::kQuery},
                                  {"Notes", BottomTab::kNotes}};
  for (const Tab& t : kTabs) {
    const bool force = state.requests.bottom_tab && state.panels.bottom_tab == t.tab;
    // "Device ops" on a TPU; the ### id keeps the tab the same across traces.
    const char* kernels_title = state.data ? DeviceOpsTitle(state.data->analysis.report) : "GPU kernels";
    const std::string device_ops = std::string(kernels_title) + "###kernels";
    const char* label = t.tab == BottomTab::kKernels ? device_ops.c_str() : t.label;
    const bool open = ImGui::BeginTabItem(label, nullptr, force ? ImGuiTabItemFlags_SetSelected : 0);
    if (TestEventsOn()) ReportTabForWalk(t.tab, open);
    if (!open) continue;
    if (!state.requests.bottom_tab) state.panels.bottom_tab = t.tab;
    // A fresh table per trace: ImGui sizes fixed columns to their content on
    // first use, and widths fitted to the last trace would cut this one's.
    ImGui::PushID(state.data.get());
    // The Query tab's model tables need no analysis.
    const bool pending = AnalysisPending(state) && t.tab != BottomTab::kSelection && t.tab != BottomTab::kQuery &&
                         t.tab != BottomTab::kNotes;
    if (pending) {
      DrawAnalysisPending("Idle gaps, op and kernel stats and memory");
      ++analysis_pending_panels_;
    } else {
      switch (t.tab) {
        case BottomTab::kIdleGaps: gaps_.Draw(state); break;
        case BottomTab::kOpStats: ops_.Draw(state); break;
        case BottomTab::kKernels: kernels_.Draw(state); break;
        case BottomTab::kSelection: DrawSelectionTab(state); break;
        case BottomTab::kMemory: memory_.Draw(state); break;
        case BottomTab::kQuery: query_.Draw(state, state.query.get()); break;
        case BottomTab::kNotes: {
          const NotesTabRequests n = notes_.Draw(state);
          req->export_notes |= n.export_notes;
          req->import_notes |= n.import_notes;
          break;
        }
      }
    }
    ImGui::PopID();
    ImGui::EndTabItem();
  }
  state.requests.bottom_tab = false;
  ImGui::EndTabBar();
}

// The bottom pane's right-click menu: the picture of the pane, and the table
// of the tab on show.
void MainView::DrawBottomMenu(ViewState& state, ViewRequests* req) {
  static constexpr const char* kStems[] = {"gaps", "ops", "kernels", "selection", "memory", "query", "notes"};
  const PanelShot shot = CurrentWindowShot(kStems[static_cast<int>(state.panels.bottom_tab)]);
  if (!BeginPanelMenu("##bottom_menu")) return;
  if (ImGui::MenuItem("Save panel as PNG")) req->save_panel = shot;
  if (state.panels.bottom_tab == BottomTab::kNotes ||
      (AnalysisPending(state) && state.panels.bottom_tab != BottomTab::kSelection)) {
    ImGui::EndPopup();  // no table to copy or save yet
    return;
  }
  ImGui::Separator();
  switch (state.panels.bottom_tab) {
    case BottomTab::kIdleGaps: gaps_.MenuItems(state, &req->exports); break;
    case BottomTab::kOpStats: ops_.MenuItems(state, &req->exports); break;
    case BottomTab::kKernels: kernels_.MenuItems(state, &req->exports); break;
    case BottomTab::kSelection: range_.MenuItems(state, &req->exports); break;
    case BottomTab::kMemory: memory_.MenuItems(state, &req->exports); break;
    case BottomTab::kQuery: break;  // its own buttons copy and save the result
    case BottomTab::kNotes: break;  // returned above: its own buttons export and import
  }
  ImGui::EndPopup();
}

void MainView::DrawSelectionTab(ViewState& state) {
  // Range aggregation; the details are in the overview column or, without
  // it, beside the tables (DrawBody).
  range_.Draw(state);
}

// Enter and Shift+Enter step through the matches and keep the field
// focused (ImGui lets go of a field on Enter: it is focused again before it
// is drawn next frame, never the widget after it); Esc leaves the field and
// keeps the text.
void MainView::DrawSearchBar(ViewState& state, bool keys) {
  ImGui::SetNextItemWidth(320);
  if (focus_search_ && keys) {
    // The keys typed after `/` are the field's, even when they arrive in the
    // same frame; the old query is selected, so typing replaces it.
    ImGui::SetKeyboardFocusHere();
    RequestTextFocus();
  }
  focus_search_ = false;
  const ImGuiID search_id = ImGui::GetID("##search");
  if (keys && ImGui::GetActiveID() == search_id && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    ImGui::ClearActiveID();  // before the field sees Esc, which would also undo the typing
  }
  const bool enter = ImGui::InputTextWithHint("##search", "Search slices ( / )", search_buf_, sizeof search_buf_,
                                              ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll);
  const bool text_changed = state.search.text != search_buf_;
  ImGui::SameLine();
  bool regex_changed = ImGui::Checkbox("regex", &state.search.regex);
  if (text_changed || regex_changed) {
    state.search.text = search_buf_;
    TestEvent("search.query", "text=" + state.search.text);
    SearchResult r = ComputeSearchMatches(*state.trace(), state.search.text, state.search.regex);
    state.search.matches = std::move(r.rows);
    ++state.links.highlight_generation;
    state.search.error = std::move(r.error);
  }
  if (enter) {
    // Nothing selected: the match nearest the view, not the trace's first.
    const bool back = ImGui::GetIO().KeyShift;
    const SliceId next = state.selected.is_none()
                             ? NearestMatch(*state.trace(), state.search.matches, state.viewport.visible)
                             : StepSearch(state.search.matches, state.selected, back);
    if (!next.is_none()) state.SelectAndReveal(next);
    TestEvent(back ? "search.prev" : "search.next",
              "index=" + std::to_string(MatchPosition(state.search.matches, state.selected)));
    focus_search_ = true;  // keep typing / pressing Enter
  }
  if (!state.search.error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%s", state.search.error.c_str());
  } else if (!state.search.text.empty()) {
    ImGui::SameLine();
    const size_t at = MatchPosition(state.search.matches, state.selected);
    if (at > 0) {
      ImGui::Text("match %zu of %zu", at, state.search.matches.size());
    } else {
      ImGui::Text("%zu matches", state.search.matches.size());
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Solo mode and caption strip
//-----------------------------------------------------------------------------

// One panel filling the window, under a heading that names it and the trace:
// a picture of a table or of the overview reads on its own in a report,
// with every column at full width instead of a quarter of the screen.
void MainView::DrawSolo(ViewState& state, const AppStatus& status) {
  static constexpr const char* kTitles[] = {"", "Overview", "Op stats", "GPU kernels", "Idle gaps", "Memory"};
  const char* title = kTitles[static_cast<int>(state.pictures.solo)];
  if (state.pictures.solo == SoloPanel::kKernels && state.data) title = DeviceOpsTitle(state.data->analysis.report);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kCardValue), "%s", title);
  if (!status.title.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kCardLabel), "-  %s", status.title.c_str());
  }
  ImGui::Separator();
  const float caption_h = state.pictures.show_caption ? CaptionHeight() : 0.f;
  ImGui::BeginChild("##solo", ImVec2(0, -caption_h), false);
  if (AnalysisPending(state)) {
    DrawAnalysisPending("The panel's rows");
    ++analysis_pending_panels_;
  }
  switch (AnalysisPending(state) ? SoloPanel::kNone : state.pictures.solo) {
    case SoloPanel::kOverview: overview_.Draw(state, ImGui::GetContentRegionAvail().y); break;
    case SoloPanel::kOpStats: ops_.Draw(state); break;
    case SoloPanel::kKernels: kernels_.Draw(state); break;
    case SoloPanel::kIdleGaps: gaps_.Draw(state); break;
    case SoloPanel::kMemory: memory_.Draw(state); break;
    case SoloPanel::kNone: break;
  }
  ImGui::EndChild();
  if (state.pictures.show_caption) DrawCaption(state, status);
}

void MainView::DrawCaption(const ViewState& state, const AppStatus& status) {
  // Solo panels are tables and charts of the whole run.
  caption_strip_ = DrawCaptionStrip(BuildCaption(status.title, state, state.pictures.solo != SoloPanel::kNone));
}

}  // namespace stepline::ui
