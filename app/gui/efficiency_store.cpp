// EfficiencyStore: parsing, formatting and the file (efficiency_store.h).
#include "app/gui/efficiency_store.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "export/safe_write.h"

namespace stepline::app {
namespace {

constexpr std::string_view kEfficiencyTsvHeader =
    "# Stepline's Efficiency settings per trace: path, peak TFLOP/s (0: the device table's), "
    "peak dtype (empty: the trace's), batch size (0: none)\n";

std::vector<std::string_view> EfficiencyTsvFields(std::string_view line) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t tab = line.find('\t');
    out.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return out;
    line.remove_prefix(tab + 1);
  }
}

bool EfficiencyTsvDtypeKnown(std::string_view dtype) {
  if (dtype.empty()) return true;
  for (std::string_view d : analysis::kPeakDtypes) {
    if (d == dtype) return true;
  }
  return false;
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path abs = std::filesystem::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

}  // namespace

std::string DefaultEfficiencyStorePath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/efficiency.tsv";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/efficiency.tsv";
  return {};
}

EfficiencyByTrace ParseEfficiencyTsv(std::string_view text, std::vector<std::string>* problems) {
  EfficiencyByTrace out;
  int line_number = 0;
  while (!text.empty()) {
    ++line_number;
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string_view> f = EfficiencyTsvFields(line);
    analysis::EfficiencyOptions o;
    bool ok = f.size() == 4 && !f[0].empty();
    if (ok) {
      const auto peak = std::from_chars(f[1].data(), f[1].data() + f[1].size(), o.peak_tflops);
      const auto batch = std::from_chars(f[3].data(), f[3].data() + f[3].size(), o.batch_size);
      ok = peak.ec == std::errc() && peak.ptr == f[1].data() + f[1].size() && o.peak_tflops >= 0 &&
           o.peak_tflops <= 1e9 && batch.ec == std::errc() && batch.ptr == f[3].data() + f[3].size() &&
           o.batch_size >= 0 && EfficiencyTsvDtypeKnown(f[2]);
      o.peak_dtype = std::string(f[2]);
    }
    if (!ok) {
      if (problems) problems->push_back("line " + std::to_string(line_number) + ": not path, peak, dtype, batch size");
      continue;
    }
    out[std::string(f[0])] = o;
  }
  return out;
}

std::string FormatEfficiencyTsv(const EfficiencyByTrace& settings) {
  std::ostringstream out;
  out << kEfficiencyTsvHeader;
  for (const auto& [path, o] : settings) {
    // A path with a tab or a line break cannot be a field: not kept.
    if (path.find_first_of("\t\r\n") != std::string::npos) continue;
    char peak[32];  // the shortest text that reads back as the same double
    const auto r = std::to_chars(peak, peak + sizeof peak, o.peak_tflops);
    out << path << '\t' << std::string_view(peak, static_cast<size_t>(r.ptr - peak)) << '\t' << o.peak_dtype << '\t'
        << o.batch_size << '\n';
  }
  return out.str();
}

analysis::EfficiencyOptions EfficiencyStore::Get(const std::string& trace_path) const {
  if (file_.empty() || trace_path.empty()) return {};
  std::ifstream in(file_, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  const EfficiencyByTrace all = ParseEfficiencyTsv(text.str());
  const auto it = all.find(AbsolutePath(trace_path));
  return it == all.end() ? analysis::EfficiencyOptions{} : it->second;
}

bool EfficiencyStore::Set(const std::string& trace_path, const analysis::EfficiencyOptions& options,
                          std::string* error) {
  if (file_.empty() || trace_path.empty()) return true;
  EfficiencyByTrace all;
  if (std::ifstream in(file_, std::ios::binary); in) {
    std::ostringstream text;
    text << in.rdbuf();
    all = ParseEfficiencyTsv(text.str());
  }
  const std::string key = AbsolutePath(trace_path);
  if (options == analysis::EfficiencyOptions{}) {
    all.erase(key);
  } else {
    all[key] = options;
  }
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(file_).parent_path(), ec);
  exports::SafeWriteOptions write;
  write.overwrite = true;  // our own file, replaced whole by the rename
  return exports::WriteFileSafely(file_, FormatEfficiencyTsv(all), write, error);
}

}  // namespace stepline::app
