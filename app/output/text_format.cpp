// Table cell padding, name clipping and labelled lines; see text_format.h.
#include "app/output/text_format.h"

#include <ostream>

namespace stepline::app {

std::string PadCell(std::string s, size_t width, bool right_align) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right_align ? fill + s : s + fill;
}

std::string ClipName(std::string_view name) {
  if (name.size() <= kMaxNameChars) return std::string(name);
  return std::string(name.substr(0, kMaxNameChars - 3)) + "...";
}

void LabelledLine(std::ostream& out, std::string_view label, const std::string& value) {
  out << label << std::string(label.size() < kLabelWidth ? kLabelWidth - label.size() : 1, ' ') << value << "\n";
}

}  // namespace stepline::app
