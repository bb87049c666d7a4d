// Table cell padding and name clipping; see text_format.h.
#include "app/text_format.h"

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

}  // namespace stepline::app
