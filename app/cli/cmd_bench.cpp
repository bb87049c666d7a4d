// `stepline bench FILE [--json] [--tile-mb N] [--repeat R] [--threads T]`:
// load speed and memory, then (on one more load in this process) analysis_ms
// and the viewer's frame_build_ms / frame_total_ms (the latter only with a GL
// context). The file is read and
// decompressed once up front; each measured run then goes from decompressed
// bytes in memory to a finalized Trace (parse + build + Finalize), in a fresh
// forked child so allocator state never carries over between runs. For a
// .gz/.zst file, open_ms times the whole LoadFile as well (decompression
// included; Chrome JSON is parsed while it decompresses).
//
// Memory: bytes_per_slice is the model's own accounting of its columns
// (Trace::MemoryBytes) over its slices, so it cannot be negative or move
// with the allocator; peak_rss_bytes is the measuring child's peak resident
// set (VmHWM, reset before the load), which holds the input too.
//
// [SECTION] Measuring one run in a child: RunReport, MeasureOnce, MeasureConfig
// [SECTION] Input: ParseSettings, PrepareInput (decompress once, tile)
// [SECTION] Output: Derive, WriteBenchJson, WriteBenchText
// Flow: RunBench -> PrepareInput -> MeasureConfig(with args: each run followed
// by a parse floor run here), MeasureConfig(no args) -> R x RunInChild(MeasureOnce)
// -> medians -> Derive -> Write*.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/cli/bench_query.h"
#include "app/cli/bench_sqlite.h"
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/gui/frame_bench.h"
#include "app/output/json_writer.h"
#include "app/cli/process_memory.h"
#include "app/output/text_format.h"
#include "app/runs/timing.h"
#include "app/cli/trace_tiler.h"
#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/chrome_json/parse_floor.h"
#include "loaders/load.h"
#include "loaders/xspace/xspace_loader.h"
#include "model/analysis/report.h"

namespace stepline::app {
namespace {

constexpr std::string_view kBenchUsage =
    "usage: stepline bench FILE [--json] [--tile-mb N] [--repeat R] [--threads T] [--sqlite | --query]\n"
    "  --tile-mb N   bench a >= N MB (10^6 bytes) tiled copy of a Chrome-JSON trace, built in memory\n"
    "  --repeat R    runs per configuration, median reported (default 5)\n"
    "  --threads T   parser threads (default 0 = all cores)\n"
    "  --sqlite      also time R SQLite exports (stepline export) beside SQLite's own insert and index rates\n"
    "  --query       only time SQL over the loaded trace (stepline query): full scans of slice and the\n"
    "                export's documented queries, R runs each, CPU of the one thread\n";

struct BenchSettings {
  bool help = false;
  std::string path;
  bool json = false;
  bool sqlite = false;
  bool query = false;
  int64_t tile_mb = 0;
  int64_t repeat = 5;
  int64_t threads = 0;
};

// The decompressed input, resident in this process before any child forks.
struct BenchInput {
  loaders::DecodedInput decoded;
  loaders::Format format = loaders::Format::kUnknown;
  uint32_t tiled_copies = 0;  // 0 = the file as is
  int64_t tile_shift_us = 0;
};

// [SECTION] Measuring one run in a child

// What one child reports through the pipe: plain bytes, fixed layout.
struct RunReport {
  bool ok = false;
  double load_ms = 0;
  double cpu_ms = 0;  // CPU time of the load over all threads; > load_ms when parsing ran in parallel
  uint64_t slices = 0;
  // The child's peak resident set over the load (VmHWM, reset just before
  // it): the input it was handed, the loader's temporaries and the model.
  // Differences of resident sizes are not reported: pages the allocator keeps
  // or returns move them by more than a small trace's model.
  uint64_t peak_rss_bytes = 0;
  uint64_t model_bytes = 0;  // Trace::MemoryBytes(): the model's own accounting of its columns
  char error[480] = {};
};

Result<Trace, loaders::LoadError> LoadDecoded(const BenchInput& input, const std::string& name,
                                              const loaders::LoadOptions& options) {
  // The same entry the viewer uses (it returns freed memory to the system
  // before handing the trace over), minus decompression.
  return loaders::LoadDecodedInput(input.decoded, name, options, nullptr);
}

// `open_file`: the whole open of the file instead, decompression included
// (for a .gz/.zst Chrome JSON trace: parsed while it decompresses).
RunReport MeasureOnce(const BenchInput& input, const std::string& name, const loaders::LoadOptions& options,
                      bool open_file = false) {
  RunReport report;
  ResetPeakResident();
  const double cpu_start_ms = ProcessCpuMs();
  const auto start = std::chrono::steady_clock::now();
  auto loaded = open_file ? loaders::LoadFile(name, options) : LoadDecoded(input, name, options);
  const auto stop = std::chrono::steady_clock::now();
  report.cpu_ms = ProcessCpuMs() - cpu_start_ms;
  report.peak_rss_bytes = ReadPeakResidentBytes().value_or(0);
  if (!loaded) {
    const std::string message = loaded.error().ToString();
    std::strncpy(report.error, message.c_str(), sizeof report.error - 1);
    return report;
  }
  report.ok = true;
  report.load_ms = std::chrono::duration<double, std::milli>(stop - start).count();
  report.slices = loaded->slices().size();
  report.model_bytes = loaded->MemoryBytes();
  return report;
}

// R runs of one configuration, each in its own child; medians of the figures.
struct ConfigResult {
  std::vector<double> run_ms;  // each run's load, in run order
  double load_ms = 0, min_ms = 0, max_ms = 0, cpu_ms = 0;
  uint64_t slices = 0;
  uint64_t peak_rss_bytes = 0;  // median over the runs
  uint64_t model_bytes = 0;
};

// `after_run`, when set, runs in this process after each child has reported
// (the parse floor, paired with the load it follows).
Result<ConfigResult, std::string> MeasureConfig(const BenchInput& input, const BenchSettings& settings, bool keep_args,
                                                bool open_file = false, const std::function<void()>& after_run = {}) {
  loaders::LoadOptions options;
  options.keep_args = keep_args;
  options.threads = static_cast<int>(settings.threads);
  std::vector<double> times, cpu_times, peaks;
  ConfigResult result;
  for (int64_t run = 0; run < settings.repeat; ++run) {
    auto bytes = RunInChild([&] {
      const RunReport report = MeasureOnce(input, settings.path, options, open_file);
      return std::string(reinterpret_cast<const char*>(&report), sizeof report);
    });
    if (!bytes) return MakeUnexpected(bytes.error());
    if (bytes->size() != sizeof(RunReport)) return MakeUnexpected(std::string("measurement child sent no report"));
    RunReport report;
    std::memcpy(&report, bytes->data(), sizeof report);
    if (!report.ok) return MakeUnexpected(std::string(report.error));
    times.push_back(report.load_ms);
    cpu_times.push_back(report.cpu_ms);
    peaks.push_back(static_cast<double>(report.peak_rss_bytes));
    result.slices = report.slices;
    result.model_bytes = report.model_bytes;
    if (after_run) after_run();
  }
  result.run_ms = times;
  result.load_ms = Median(times);
  result.cpu_ms = Median(cpu_times);
  result.min_ms = *std::min_element(times.begin(), times.end());
  result.max_ms = *std::max_element(times.begin(), times.end());
  result.peak_rss_bytes = static_cast<uint64_t>(Median(peaks));
  return result;
}

// [SECTION] Input

Result<BenchSettings, std::string> ParseSettings(const Args& args) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--json", "--help", "--sqlite", "--query"}, {"--tile-mb", "--repeat", "--threads"}});
  if (!parsed) return MakeUnexpected(parsed.error());
  BenchSettings settings;
  if (parsed->Has("--help")) {
    settings.help = true;
    return settings;
  }
  if (parsed->positionals().size() != 1) return MakeUnexpected(std::string("expected exactly one FILE"));
  settings.path = parsed->positionals().front();
  settings.json = parsed->Has("--json");
  settings.sqlite = parsed->Has("--sqlite");
  settings.query = parsed->Has("--query");
  auto tile_mb = parsed->IntValue("--tile-mb", 0, 1, 16384);
  auto repeat = parsed->IntValue("--repeat", 5, 1, 1000);
  auto threads = parsed->IntValue("--threads", 0, 0, 1024);
  for (const auto* value : {&tile_mb, &repeat, &threads}) {
    if (!*value) return MakeUnexpected(value->error());
  }
  settings.tile_mb = *tile_mb;
  settings.repeat = *repeat;
  settings.threads = *threads;
  return settings;
}

// Reads and decompresses once; tiles when asked. The result lives on the heap
// and every page is touched, so forked children share it without faulting.
Result<BenchInput, std::string> PrepareInput(const BenchSettings& settings) {
  auto opened = loaders::OpenInput(settings.path, nullptr);
  if (!opened) return MakeUnexpected(opened.error().ToString());
  BenchInput input;
  std::string_view content = opened->bytes.view();
  input.format = loaders::SniffFormat(content.substr(0, 128));
  std::string tiled_text;
  if (settings.tile_mb > 0) {
    if (input.format != loaders::Format::kChromeJson) {
      return MakeUnexpected(settings.path + ": --tile-mb needs a Chrome-JSON trace");
    }
    auto tiled = TileChromeJson(content, static_cast<uint64_t>(settings.tile_mb) * 1000000);
    if (!tiled) return MakeUnexpected(settings.path + ": cannot tile: " + tiled.error());
    input.tiled_copies = tiled->copies;
    input.tile_shift_us = tiled->shift_us;
    tiled_text = std::move(tiled->json);
    content = tiled_text;
  } else if (input.format == loaders::Format::kUnknown) {
    return MakeUnexpected(settings.path + ": bench reads Chrome-JSON, XSpace and Perfetto traces only (format: " +
                          std::string(loaders::FormatName(input.format)) + ")");
  }
  input.decoded.bytes = loaders::ByteBuffer::Allocate(content.size());
  std::memcpy(input.decoded.bytes.mutable_data(), content.data(), content.size());
  input.decoded.bytes.Resize(content.size());
  input.decoded.compression = opened->compression;
  input.decoded.file_bytes = opened->file_bytes;
  return input;
}

// [SECTION] Output

struct BenchFigures {
  ConfigResult with_args, no_args;
  double mb_per_s = 0, slices_per_s = 0, bytes_per_slice = 0, bytes_per_slice_no_args = 0;
  double analysis_ms = 0;   // median ComputeReport time on the loaded trace
  double parse_floor_mb_per_s = 0;  // Chrome JSON: simdjson on-demand alone, same bytes and cores (0 = n/a)
  double parse_floor_cpu_ms = 0;    // its CPU time over all threads (on a busy machine the fairer peer of cpu_ms)
  double load_vs_parse_floor = 0;   // median over the runs of floor ms / load ms, each floor right after its load
  std::optional<ConfigResult> file_open;  // compressed input: LoadFile, decompression included
  double open_mb_per_s = 0;               // its content MB per second
  FrameBenchResult frames;  // viewer frame times at 1920x1080
  std::optional<SqliteBenchResult> sqlite;  // with --sqlite
};

// Loads the trace once more in this process and times what comes after a
// load: the analysis report, viewer frames and (with --sqlite) the export.
Result<std::pair<double, FrameBenchResult>, std::string> MeasureAfterLoad(const BenchInput& input,
                                                                         const std::string& name, int repeat,
                                                                         std::optional<SqliteBenchResult>* sqlite) {
  auto loaded = loaders::LoadDecodedInput(input.decoded, name);
  if (!loaded) return MakeUnexpected(loaded.error().ToString());
  auto trace = std::make_shared<const Trace>(std::move(loaded).value());
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, repeat); ++i) {
    const auto start = std::chrono::steady_clock::now();
    const analysis::Report report = analysis::ComputeReport(*trace, analysis::ReportOptions{});
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    (void)report;
  }
  if (sqlite) {
    auto measured = MeasureSqliteExport(*trace, repeat);
    if (!measured) return MakeUnexpected(measured.error());
    *sqlite = *measured;
  }
  auto data = std::make_shared<const ui::TimelineData>(trace);
  return std::make_pair(Median(ms), MeasureFrames(data, 1920, 1080, 9));
}

void WriteFrameTimes(JsonWriter& json, const char* key, const FrameTimes& t) {
  json.Key(key).BeginObject();
  json.FieldFixed("fit_all", t.fit_all, 3).FieldFixed("zoom_10pct", t.zoom_10pct, 3);
  json.FieldFixed("zoom_1pct", t.zoom_1pct, 3).FieldFixed("zoom_0_1pct", t.zoom_0_1pct, 3);
  json.EndObject();
}

BenchFigures Derive(uint64_t bytes, const ConfigResult& with_args, const ConfigResult& no_args) {
  BenchFigures f;
  f.with_args = with_args;
  f.no_args = no_args;
  const double seconds = with_args.load_ms / 1e3;
  f.mb_per_s = seconds > 0 ? static_cast<double>(bytes) / 1e6 / seconds : 0;
  f.slices_per_s = seconds > 0 ? static_cast<double>(with_args.slices) / seconds : 0;
  const auto per_slice = [](const ConfigResult& c) {
    return c.slices > 0 ? static_cast<double>(c.model_bytes) / static_cast<double>(c.slices) : 0.0;
  };
  f.bytes_per_slice = per_slice(with_args);
  f.bytes_per_slice_no_args = per_slice(no_args);
  return f;
}

void WriteBenchJson(const BenchSettings& settings, const BenchInput& input, const BenchFigures& f, std::ostream& out) {
  JsonWriter json;
  json.BeginObject();
  json.Field("bytes", uint64_t(input.decoded.bytes.size())).Field("slices", f.with_args.slices);
  json.FieldFixed("load_ms", f.with_args.load_ms, 3).FieldFixed("load_mb_per_s", f.mb_per_s, 1);
  json.Field("peak_rss_bytes", f.with_args.peak_rss_bytes);
  json.FieldFixed("bytes_per_slice", f.bytes_per_slice, 2)
      .FieldFixed("bytes_per_slice_no_args", f.bytes_per_slice_no_args, 2);
  // Beyond the list: context for the figures above.
  json.FieldFixed("slices_per_s", f.slices_per_s, 0).FieldFixed("load_ms_no_args", f.no_args.load_ms, 3);
  json.FieldFixed("cpu_ms", f.with_args.cpu_ms, 3);
  json.Field("peak_rss_bytes_no_args", f.no_args.peak_rss_bytes);
  json.Field("model_bytes", f.with_args.model_bytes).Field("model_bytes_no_args", f.no_args.model_bytes);
  json.Field("format", loaders::FormatName(input.format)).Field("tiled_copies", input.tiled_copies);
  json.Field("repeat", uint64_t(settings.repeat)).Field("threads", uint64_t(settings.threads));
  json.FieldFixed("analysis_ms", f.analysis_ms, 3);
  if (input.format == loaders::Format::kChromeJson) {
    json.FieldFixed("parse_floor_mb_per_s", f.parse_floor_mb_per_s, 1);
    json.FieldFixed("load_vs_parse_floor", f.load_vs_parse_floor, 3);
    json.FieldFixed("parse_floor_cpu_ms", f.parse_floor_cpu_ms, 3);
  }
  if (f.file_open) {
    json.FieldFixed("open_ms", f.file_open->load_ms, 3).FieldFixed("open_cpu_ms", f.file_open->cpu_ms, 3);
    json.FieldFixed("open_mb_per_s", f.open_mb_per_s, 1);
  }
  WriteFrameTimes(json, "frame_build_ms", f.frames.build_ms);
  if (f.frames.total_ms) WriteFrameTimes(json, "frame_total_ms", *f.frames.total_ms);
  if (f.sqlite) {
    const SqliteBenchResult& q = *f.sqlite;
    const auto per_s = [&](double ms) { return ms > 0 ? static_cast<double>(q.slices) / ms * 1e3 : 0.0; };
    json.FieldFixed("export_ms", q.wall_ms, 3).FieldFixed("export_cpu_ms", q.cpu_ms, 3);
    json.FieldFixed("export_slices_per_s", per_s(q.wall_ms), 0);
    json.FieldFixed("export_slices_per_s_cpu", per_s(q.cpu_ms), 0);
    json.FieldFixed("sqlite_floor_insert_rows_per_s", q.floor_insert_rows_per_s, 0);
    json.FieldFixed("sqlite_floor_name_index_rows_per_s", q.floor_name_index_rows_per_s, 0);
  }
  json.EndObject();
  out << json.text() << "\n";
}

// "model 22.0 MB, 178.3 B/slice; peak resident 80.1 MB (input included)"
std::string MemoryFigures(const ConfigResult& c) {
  const double per_slice = c.slices > 0 ? static_cast<double>(c.model_bytes) / static_cast<double>(c.slices) : 0;
  return "model " + FormatBytes(c.model_bytes) + ", " + FormatFixed(per_slice, 1) + " B/slice; peak resident " +
         FormatBytes(c.peak_rss_bytes) + " (input included)";
}

void WriteBenchText(const BenchSettings& settings, const BenchInput& input, const BenchFigures& f, std::ostream& out) {
  const uint64_t bytes = input.decoded.bytes.size();
  out << "input    " << settings.path << " (" << loaders::FormatName(input.format)
      << (input.decoded.compression.empty() ? "" : ", " + input.decoded.compression) << "), " << FormatBytes(bytes)
      << " decompressed\n";
  if (input.tiled_copies > 0) {
    out << "tiled    " << input.tiled_copies << " copies of the event array, shifted by "
        << FormatDuration(input.tile_shift_us * 1000) << " each\n";
  }
  out << "runs     " << settings.repeat << " per configuration, each in a fresh process; threads "
      << (settings.threads == 0 ? std::string("auto") : std::to_string(settings.threads)) << "\n";
  out << "load     " << FormatFixed(f.with_args.load_ms, 1) << " ms median (min " << FormatFixed(f.with_args.min_ms, 1)
      << ", max " << FormatFixed(f.with_args.max_ms, 1) << "): " << FormatFixed(f.mb_per_s, 1) << " MB/s, "
      << FormatCount(static_cast<uint64_t>(f.slices_per_s)) << " slices/s, " << FormatCount(f.with_args.slices)
      << " slices\n";
  if (f.parse_floor_mb_per_s > 0) {
    out << "floor    simdjson on-demand parse of the same bytes on the same threads: "
        << FormatFixed(f.parse_floor_mb_per_s, 1) << " MB/s median; the load runs at "
        << FormatFixed(f.load_vs_parse_floor, 2) << " of it (median of each load against the floor run after it); CPU "
        << FormatFixed(f.parse_floor_cpu_ms, 1) << " ms, the load's is "
        << FormatFixed(f.with_args.cpu_ms / f.parse_floor_cpu_ms, 2) << "x that\n";
  }
  out << "cpu      " << FormatFixed(f.with_args.cpu_ms, 1) << " ms median over all threads ("
      << FormatFixed(f.with_args.load_ms > 0 ? f.with_args.cpu_ms / f.with_args.load_ms : 0, 2)
      << " cores busy on average)\n";
  if (f.sqlite) {
    const SqliteBenchResult& q = *f.sqlite;
    const auto per_s = [&](double ms) { return FormatFixed(ms > 0 ? q.slices / ms / 1e3 : 0, 2); };
    out << "sqlite   export " << FormatFixed(q.wall_ms, 1) << " ms wall, " << FormatFixed(q.cpu_ms, 1)
        << " ms CPU median: " << per_s(q.wall_ms) << " / " << per_s(q.cpu_ms) << " M slices/s (wall / CPU)\n"
        << "         CPU by phase (last run): main thread: slice and flow tables " << FormatFixed(q.phases.slices_cpu_ms, 1)
        << " ms, name index " << FormatFixed(q.phases.name_index_cpu_ms, 1) << " ms, copying the side tables "
        << FormatFixed(q.phases.copy_cpu_ms, 1) << " ms, analysis tables and commit "
        << FormatFixed(q.phases.finish_cpu_ms, 1) << " ms (waited " << FormatFixed(q.phases.wait_ms, 1)
        << " ms); side thread (args) " << FormatFixed(q.phases.side_cpu_ms, 1) << " ms\n"
        << "         SQLite floor (CPU, same run): trivial insert loop "
        << FormatFixed(q.floor_insert_rows_per_s / 1e6, 2) << " M rows/s; CREATE INDEX on the names "
        << FormatFixed(q.floor_name_index_rows_per_s / 1e6, 2) << " M rows/s\n";
  }
  if (f.file_open) {
    out << "open     " << FormatFixed(f.file_open->load_ms, 1) << " ms median, CPU " << FormatFixed(f.file_open->cpu_ms, 1)
        << " ms: the whole open of the " << input.decoded.compression << " file, decompression included ("
        << FormatFixed(f.open_mb_per_s, 1) << " MB/s of content)\n";
  }
  out << "memory   with args:    " << MemoryFigures(f.with_args) << "\n";
  out << "         without args: " << MemoryFigures(f.no_args) << " (load " << FormatFixed(f.no_args.load_ms, 1)
      << " ms)\n";
}

}  // namespace

int RunBench(const Args& args, std::ostream& out, std::ostream& err) {
  auto settings = ParseSettings(args);
  if (!settings) {
    err << "stepline bench: " << settings.error() << "\n" << kBenchUsage;
    return 2;
  }
  if (settings->help) {
    out << kBenchUsage;
    return 0;
  }
  auto input = PrepareInput(*settings);
  if (!input) {
    err << input.error() << "\n";
    return 1;
  }
  if (settings->query) {
    auto loaded = loaders::LoadDecodedInput(input->decoded, settings->path);
    if (!loaded) {
      err << loaded.error().ToString() << "\n";
      return 1;
    }
    std::vector<QueryBenchRow> rows;
    if (const std::string error = MeasureQueries(loaded.value(), static_cast<int>(settings->repeat), &rows);
        !error.empty()) {
      err << "stepline bench: " << error << "\n";
      return 1;
    }
    if (settings->json) {
      WriteQueryBenchJson(rows, out);
    } else {
      out << "slices   " << FormatCount(loaded.value().slices().size()) << "; runs " << settings->repeat
          << " per query after one warm-up, medians\n";
      WriteQueryBenchText(rows, out);
    }
    return 0;
  }
  // The parse floor runs once after each load with args, in this process (its
  // threads are joined before the next fork): this VM's speed drifts by tens
  // of percent within a minute, so a floor measured after all the loads
  // moved the ratio from 0.45 to 0.79 between invocations; a
  // floor next to each load sees the same machine.
  std::vector<double> floor_ms, floor_cpu_ms;
  std::function<void()> measure_floor;
  if (input->format == loaders::Format::kChromeJson) {
    measure_floor = [&] {
      const double cpu_start = ProcessCpuMs();
      const auto ms = loaders::MeasureParseFloorMs(input->decoded.bytes.view(), static_cast<int>(settings->threads));
      floor_ms.push_back(ms && *ms > 0 ? *ms : 0);  // 0: failed, kept so runs pair by index
      if (floor_ms.back() > 0) floor_cpu_ms.push_back(ProcessCpuMs() - cpu_start);
    };
  }
  auto with_args = MeasureConfig(*input, *settings, /*keep_args=*/true, /*open_file=*/false, measure_floor);
  if (!with_args) {
    err << with_args.error() << "\n";
    return 1;
  }
  auto no_args = MeasureConfig(*input, *settings, /*keep_args=*/false);
  if (!no_args) {
    err << no_args.error() << "\n";
    return 1;
  }
  BenchFigures figures = Derive(input->decoded.bytes.size(), *with_args, *no_args);
  if (!input->decoded.compression.empty() && input->tiled_copies == 0) {
    auto opened = MeasureConfig(*input, *settings, /*keep_args=*/true, /*open_file=*/true);
    if (!opened) {
      err << opened.error() << "\n";
      return 1;
    }
    figures.file_open = *opened;
    const double seconds = opened->load_ms / 1e3;
    figures.open_mb_per_s = seconds > 0 ? static_cast<double>(input->decoded.bytes.size()) / 1e6 / seconds : 0;
  }
  std::vector<double> paired;
  for (size_t run = 0; run < floor_ms.size() && run < with_args->run_ms.size(); ++run) {
    if (floor_ms[run] > 0 && with_args->run_ms[run] > 0) paired.push_back(floor_ms[run] / with_args->run_ms[run]);
  }
  if (!paired.empty()) {
    std::erase(floor_ms, 0.0);
    figures.parse_floor_mb_per_s = static_cast<double>(input->decoded.bytes.size()) / 1e3 / Median(floor_ms);
    figures.parse_floor_cpu_ms = Median(floor_cpu_ms);
    figures.load_vs_parse_floor = Median(paired);
  }
  auto after = MeasureAfterLoad(*input, settings->path, static_cast<int>(settings->repeat),
                                settings->sqlite ? &figures.sqlite : nullptr);
  if (!after) {
    err << after.error() << "\n";
    return 1;
  }
  figures.analysis_ms = after->first;
  figures.frames = after->second;
  if (settings->json) {
    WriteBenchJson(*settings, *input, figures, out);
  } else {
    WriteBenchText(*settings, *input, figures, out);
  }
  return 0;
}

}  // namespace stepline::app
