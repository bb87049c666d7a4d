// JSON text helpers; see json_text.h.
#include "export/json_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace stepline::exports {
namespace {

}  // namespace

void AppendJsonInt(std::string* out, int64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, r.ptr);
}

void AppendJsonDouble(std::string* out, double v) {
  if (!std::isfinite(v)) {
    out->append("null");
    return;
  }
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  out->append(buf, res.ptr);
}

void AppendJsonMicrosFromNs(std::string* out, int64_t ns) {
  uint64_t mag = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  if (ns < 0) out->push_back('-');
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, mag / 1000);
  out->append(buf, res.ptr);
  const unsigned frac = static_cast<unsigned>(mag % 1000);
  out->push_back('.');
  out->push_back(static_cast<char>('0' + frac / 100));
  out->push_back(static_cast<char>('0' + frac / 10 % 10));
  out->push_back(static_cast<char>('0' + frac % 10));
}

}  // namespace stepline::exports
