// The compare view's pictures and tables: its tables as
// TextTables (exact integer ns, rows in the order shown) and the right-click
// menus of its panels, which hand PanelShots and ExportRequests to the app
// like MainView's panels do. Pure text builders are tested without a window.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/analysis/compare.h"
#include "ui/panel_capture.h"
#include "ui/table_export.h"

namespace stepline::ui {

// The ops diff rows `order` (indices into c.ops, as the table shows them):
// in (both / only_a / only_b), kind, name, a_count, b_count, a_total_ns,
// b_total_ns, delta_ns, delta_per_step_ns (one decimal, as `stepline diff --json`).
TextTable OpsDiffTextTable(const analysis::Comparison& c, const std::vector<uint32_t>& order);
// The summary rows the table shows: metric, unit (count / ns / percent), a, b,
// delta, delta_percent. ns as integers, percentages with 3 decimals; an empty
// delta_percent when A is 0 and B is not ("new" on screen).
TextTable CompareSummaryTextTable(const analysis::Comparison& c);

// What the compare view's panel menus asked for this frame.
struct ComparePanelMenus {
  PanelShot whole;                      // the whole compare view (below the menu bar), set before drawing
  std::optional<PanelShot> save_panel;  // a "Save ... as PNG" item was clicked
  bool save_window = false;             // "Save window as PNG"
  std::vector<ExportRequest> exports;   // "Save ... as CSV"
};

// A context menu that opens on a right-click inside `region` of the current
// window (or its children), unless another popup took the click. When it
// returns true, add items and call ImGui::EndPopup().
bool BeginRegionMenu(const char* id, const PanelShot& region);
// "Save <what> as PNG" for `panel`, "Save compare view as PNG" and "Save
// window as PNG"; call inside an open menu.
void PictureMenuItems(const char* what, const PanelShot& panel, ComparePanelMenus* menus);

}  // namespace stepline::ui
