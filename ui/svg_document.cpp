// SvgDocument; see svg_document.h.
#include "ui/svg_document.h"

#include <cstdio>

#include "ui/theme.h"

namespace stepline::ui {

std::string SvgHex(uint32_t abgr) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xff, (abgr >> 8) & 0xff, (abgr >> 16) & 0xff);
  return buf;
}

std::string SvgNum(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

SvgDocument::SvgDocument(double width, double height, std::string_view title) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         SvgNum(width) + "\" height=\"" + SvgNum(height) + "\" viewBox=\"0 0 " + SvgNum(width) + " " +
         SvgNum(height) + "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n";
  out_ += "<title>" + XmlEscape(title) + "</title>\n";
  Rect("background", 0, 0, width, height, svg_palette::kPaper);
  Text(12, 22, title, svg_palette::kInk, "start", 14);
}

void SvgDocument::Rect(const char* cls, double x, double y, double w, double h, const std::string& fill) {
  out_ += "<rect class=\"" + std::string(cls) + "\" x=\"" + SvgNum(x) + "\" y=\"" + SvgNum(y) + "\" width=\"" +
          SvgNum(w) + "\" height=\"" + SvgNum(h) + "\" fill=\"" + fill + "\"/>\n";
}

void SvgDocument::Line(double x0, double y0, double x1, double y1, const char* stroke, const char* extra) {
  out_ += "<line x1=\"" + SvgNum(x0) + "\" y1=\"" + SvgNum(y0) + "\" x2=\"" + SvgNum(x1) + "\" y2=\"" + SvgNum(y1) +
          "\" stroke=\"" + stroke + "\"" + extra + "/>\n";
}

void SvgDocument::Text(double x, double y, std::string_view text, const std::string& fill, const char* anchor,
                       double size) {
  out_ += "<text x=\"" + SvgNum(x) + "\" y=\"" + SvgNum(y) + "\" fill=\"" + fill + "\" text-anchor=\"" + anchor +
          "\" font-size=\"" + SvgNum(size) + "\">" + XmlEscape(text) + "</text>\n";
}

void SvgDocument::StackedBar(const char* cls, const analysis::CategoryNs& ns, double x, double w, double y_bottom,
                             double px_per_ns) {
  double y = y_bottom;
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    if (ns[c] <= 0) continue;
    const double h = static_cast<double>(ns[c]) * px_per_ns;
    Rect(cls, x, y - h, w, h, SvgHex(theme::kCategoryColors[c]));
    y -= h;
  }
}

std::string SvgDocument::Finish() {
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace stepline::ui
