// The text module; see text_format.h.
#include "model/text_format.h"

#include <cmath>
#include <cstdio>

namespace stepline::text {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  if (len == 2 && c < 0xC2) return 0;  // overlong
  return len;
}

}  // namespace

std::string FormatFixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string FormatCount(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string FormatDuration(int64_t ns) {
  struct Unit {
    int64_t ns;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "\xC2\xB5s"}, {1, "ns"}};
  const int64_t mag = ns < 0 ? -ns : ns;
  const Unit* u = &kUnits[3];
  for (const Unit& candidate : kUnits) {
    if (mag >= candidate.ns) {
      u = &candidate;
      break;
    }
  }
  char buf[64];
  if (u->ns == 1) {
    std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
    return buf;
  }
  const double v = static_cast<double>(ns) / static_cast<double>(u->ns);
  const double av = std::fabs(v);
  std::snprintf(buf, sizeof buf, "%.*f %s", av >= 100 ? 1 : av >= 10 ? 2 : 3, v, u->name);
  return buf;
}

std::string FormatBytes(uint64_t bytes) {
  const double v = static_cast<double>(bytes);
  if (bytes < 1000) return std::to_string(bytes) + " B";
  if (v < 1e6) return FormatFixed(v / 1e3, 1) + " KB";
  if (v < 1e9) return FormatFixed(v / 1e6, 1) + " MB";
  return FormatFixed(v / 1e9, 2) + " GB";
}

void AppendCsvField(std::string_view field, std::string* out) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out->append(field);
    return;
  }
  out->push_back('"');
  for (char c : field) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

std::string ValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t len = Utf8SequenceLength(s, i);
    if (len == 0) {
      out.append("\xEF\xBF\xBD");
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

void AppendJsonString(std::string* out, std::string_view s) {
  out->push_back('"');
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = Utf8SequenceLength(s, i);
      if (len == 0) {
        out->append("\xEF\xBF\xBD");
        ++i;
      } else {
        out->append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

}  // namespace stepline::text
