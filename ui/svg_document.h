// SvgDocument: the small SVG writer behind the chart exports (step chart,
// compare chart): a print-friendly page (white paper, dark ink) on which the
// bars keep the app's category colours, numbers written short ("12.5", not
// "12.500000") so files stay small and diffable.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/analysis/time_category.h"

namespace stepline::ui {

namespace svg_palette {
inline constexpr const char* kPaper = "#ffffff";
inline constexpr const char* kInk = "#202428";
inline constexpr const char* kMuted = "#6b7280";
inline constexpr const char* kGrid = "#e5e7eb";
inline constexpr double kFontPx = 12;
inline constexpr double kCharPx = 7;  // average DejaVu Sans advance at 12 px, for legend wrapping
}  // namespace svg_palette

// "#rrggbb" of an ImGui ABGR colour.
std::string SvgHex(uint32_t abgr);
// At most two decimals, no trailing zeros, never "-0".
std::string SvgNum(double v);
// Text escaped for XML content and attribute values.
std::string XmlEscape(std::string_view text);

class SvgDocument {
 public:
  // Opens <svg> of width x height (also the viewBox) with <title>, a paper
  // background and the title drawn at the top left.
  SvgDocument(double width, double height, std::string_view title);

  void Rect(const char* cls, double x, double y, double w, double h, const std::string& fill);
  void Line(double x0, double y0, double x1, double y1, const char* stroke, const char* extra = "");
  void Text(double x, double y, std::string_view text, const std::string& fill, const char* anchor = "start",
            double size = svg_palette::kFontPx);
  // Stacks one bar's categories from y_bottom upwards, in TimeCategory order
  // (as the app draws them).
  void StackedBar(const char* cls, const analysis::CategoryNs& ns, double x, double w, double y_bottom,
                  double px_per_ns);
  void Raw(std::string_view text) { out_ += text; }
  // Closes </svg> and returns the document.
  std::string Finish();

 private:
  std::string out_;
};

}  // namespace stepline::ui
