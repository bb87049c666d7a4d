// `stepline info FILE [--json]`: loads a trace and prints its headline facts,
// for people (aligned, human units) or as exactly one JSON object whose keys
// docs/cli.md documents (tests/app/cmd_info_test.cpp holds it to that list).
#include <array>
#include <chrono>
#include <map>
#include <ostream>
#include <string>

#include "app/runs/cached_trace_load.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/output/json_writer.h"
#include "app/output/text_format.h"
#include "loaders/load.h"
#include "model/analysis/memory_analysis.h"
#include "model/analysis/trace_summary.h"
#include "model/memory_table.h"

namespace stepline::app {
namespace {

constexpr std::string_view kInfoUsage =
    "usage: stepline info FILE [--json]\n"
    "  FILE may be a TensorBoard/XProf log directory: its newest profile run is used\n";

// GPU-side slices per GpuKind: a count and summed duration.
struct GpuTotals {
  std::array<uint64_t, kGpuKindCount> count{};
  std::array<DurNs, kGpuKindCount> ns{};
};

// The groups `info` reports. "kernel" includes collectives; "memcpy_other"
// is device-to-device plus every copy of unknown or peer direction.
struct GpuGroup {
  uint64_t count = 0;
  DurNs ns = 0;
};
struct GpuGroups {
  GpuGroup kernel, collective, memcpy_h2d, memcpy_d2h, memcpy_other, memset;
};

GpuGroups GroupGpu(const GpuTotals& t) {
  const auto one = [&](GpuKind k) { return GpuGroup{t.count[size_t(k)], t.ns[size_t(k)]}; };
  const auto sum = [](GpuGroup a, GpuGroup b) { return GpuGroup{a.count + b.count, a.ns + b.ns}; };
  GpuGroups g;
  g.collective = one(GpuKind::kCollective);
  g.kernel = sum(one(GpuKind::kKernel), g.collective);
  g.memcpy_h2d = one(GpuKind::kMemcpyH2D);
  g.memcpy_d2h = one(GpuKind::kMemcpyD2H);
  g.memcpy_other = sum(one(GpuKind::kMemcpyD2D), one(GpuKind::kMemcpyOther));
  g.memset = one(GpuKind::kMemset);
  return g;
}

// The first instance's detail says more than the code's generic description.
std::string_view DiagMessage(const Diagnostics::Entry& entry) {
  if (!entry.instances.empty() && !entry.instances.front().detail.empty()) return entry.instances.front().detail;
  return GetDiagCodeInfo(entry.code).description;
}

void WriteGpuJson(const GpuGroups& g, JsonWriter* json) {
  const auto group = [&](std::string_view key, const GpuGroup& v) {
    json->Field(key, v.count).Field(std::string(key) + "_ns", static_cast<uint64_t>(v.ns));
  };
  json->Key("gpu").BeginObject();
  group("kernel", g.kernel);
  group("collective", g.collective);
  group("memcpy_h2d", g.memcpy_h2d);
  group("memcpy_d2h", g.memcpy_d2h);
  group("memcpy_other", g.memcpy_other);
  group("memset", g.memset);
  json->EndObject();
}

void WriteInfoJson(const Trace& trace, const analysis::TraceSummary& s, double load_ms, std::ostream& out) {
  JsonWriter json;
  json.BeginObject();
  json.Field("format", trace.info().format).Field("bytes", trace.info().input_bytes).FieldFixed("load_ms", load_ms, 3);
  json.Field("slices", s.slices).Field("instants", s.instants).Field("counter_samples", s.counter_samples);
  json.Field("flows", s.flows).Field("memory_events", s.memory_events);
  json.Key("tracks").BeginObject();
  for (int k = 0; k < kTrackKindCount; ++k) {
    json.Field(TrackKindName(static_cast<TrackKind>(k)), s.tracks_by_kind[size_t(k)]);
  }
  json.EndObject();
  json.Key("span_ns").Int(s.span_ns);
  WriteGpuJson(GroupGpu(GpuTotals{s.gpu_count, s.gpu_ns}), &json);
  json.Field("steps", s.steps);
  json.Key("diagnostics").BeginArray();
  for (const Diagnostics::Entry* entry : trace.diagnostics().NonEmpty()) {
    json.BeginObject().Field("code", GetDiagCodeInfo(entry->code).name).Field("count", entry->count);
    json.Key("first_offset");
    if (entry->first_offset == Diagnostics::kNoOffset) {
      json.Null();
    } else {
      json.Uint(entry->first_offset);
    }
    json.Field("message", DiagMessage(*entry)).EndObject();
  }
  json.EndArray().EndObject();
  out << json.text() << "\n";
}

std::string CountAndTime(const GpuGroup& g) { return FormatCount(g.count) + " (" + FormatDuration(g.ns) + ")"; }

void WriteGpuText(const GpuGroups& g, std::ostream& out) {
  LabelledLine(out, "gpu kernels", CountAndTime(g.kernel) + ", incl. collective " + CountAndTime(g.collective));
  LabelledLine(out, "gpu memcpy",
       "h2d " + CountAndTime(g.memcpy_h2d) + ", d2h " + CountAndTime(g.memcpy_d2h) + ", other " +
           CountAndTime(g.memcpy_other));
  LabelledLine(out, "gpu memset", CountAndTime(g.memset));
}

void WriteDevicesText(const analysis::TraceSummary& s, std::ostream& out) {
  for (const analysis::TraceSummary::Device& d : s.device_list) {
    const int32_t device_id = d.device_id;
    const uint32_t streams = d.streams;
    const GpuGroups g = GroupGpu(GpuTotals{d.gpu_count, d.gpu_ns});
    const GpuGroup copies{g.memcpy_h2d.count + g.memcpy_d2h.count + g.memcpy_other.count,
                          g.memcpy_h2d.ns + g.memcpy_d2h.ns + g.memcpy_other.ns};
    const std::string label = device_id < 0 ? std::string("device ?") : "device " + std::to_string(device_id);
    LabelledLine(out, label,
         FormatCount(streams) + (streams == 1 ? " stream" : " streams") + "; kernels " +
             CountAndTime(g.kernel) + "; memcpy " + CountAndTime(copies) + "; memset " + CountAndTime(g.memset));
  }
}

void WriteDiagnosticsText(const Diagnostics& diagnostics, std::ostream& out) {
  const auto entries = diagnostics.NonEmpty();
  if (entries.empty()) {
    LabelledLine(out, "diagnostics", "none");
    return;
  }
  LabelledLine(out, "diagnostics",
       FormatCount(diagnostics.total()) + " in " + std::to_string(entries.size()) +
           (entries.size() == 1 ? " kind" : " kinds"));
  for (const Diagnostics::Entry* entry : entries) {
    const DiagCodeInfo& info = GetDiagCodeInfo(entry->code);
    std::string where = entry->first_offset == Diagnostics::kNoOffset
                            ? std::string()
                            : ", first at byte " + std::to_string(entry->first_offset);
    out << "  " << SeverityName(info.severity) << " " << info.name << " x" << FormatCount(entry->count) << where << ": "
        << DiagMessage(*entry) << "\n";
  }
}

// One line per memory pool: the figures `report` details (peak allocated and
// reserved, fragmentation there, allocs, frees, blocks never freed, OOMs).
void WriteMemoryText(const Trace& trace, std::ostream& out) {
  const MemoryTable table = BuildMemoryTable(trace);
  const analysis::MemoryAnalysis memory = analysis::ComputeMemoryAnalysis(table, {});
  for (size_t i = 0; i < table.pools.size(); ++i) {
    const MemoryPool& pool = table.pools[i];
    const analysis::MemoryPoolAnalysis& a = memory.pools[i];
    std::string line = "peak " + analysis::FormatMemoryBytes(double(a.peak_allocated_bytes)) + " allocated";
    if (a.peak_reserved_bytes >= 0) line += ", " + analysis::FormatMemoryBytes(double(a.peak_reserved_bytes)) + " reserved";
    if (a.peak_event != kNoMemoryEvent && pool.samples[a.peak_event].reserved >= 0) {
      const int64_t spare = pool.samples[a.peak_event].reserved - pool.samples[a.peak_event].allocated;
      // Reserved below allocated cannot happen in an allocator: the recorded
      // levels disagree (a synthetic snapshot, or segments the capture missed),
      // so no fragmentation figure is claimed.
      line += spare >= 0 ? " (reserved - allocated at the peak: " + analysis::FormatMemoryBytes(double(spare)) + ")"
                         : " (reserved is below allocated at the peak: the recorded levels disagree)";
    }
    line += "; " + FormatCount(pool.alloc_events) + " allocs, " + FormatCount(pool.free_events) + " frees, " +
            FormatCount(pool.never_freed) + " never freed, " + FormatCount(pool.ooms.size()) + " OOMs";
    LabelledLine(out, "memory " + pool.name, line);
  }
}

void WriteInfoText(const std::string& path, const Trace& trace, const analysis::TraceSummary& s, double load_ms,
                   std::ostream& out) {
  const TraceInfo& info = trace.info();
  LabelledLine(out, "file", path);
  LabelledLine(out, "format", info.format);
  const std::string on_disk = FormatBytes(info.file_bytes) + " on disk" +
                              (info.compression.empty() ? std::string() : " (" + info.compression + ")");
  LabelledLine(out, "size", on_disk + ", " + FormatBytes(info.input_bytes) + " parsed");
  LabelledLine(out, "load", FormatFixed(load_ms, 1) + " ms");
  LabelledLine(out, "span", FormatDuration(s.span_ns));
  LabelledLine(out, "slices", FormatCount(s.slices));
  LabelledLine(out, "instants", FormatCount(s.instants));
  if (s.memory_events > 0) {
    LabelledLine(out, "memory events", FormatCount(s.memory_events));
    WriteMemoryText(trace, out);
  }
  LabelledLine(out, "counter samples", FormatCount(s.counter_samples));
  LabelledLine(out, "flows", FormatCount(s.flows) + " (" + FormatCount(s.launch_flows) + " launch)");
  std::string tracks;
  for (int k = 0; k < kTrackKindCount; ++k) {
    if (k > 0) tracks += ", ";
    tracks += FormatCount(s.tracks_by_kind[size_t(k)]) + " " + std::string(TrackKindName(static_cast<TrackKind>(k)));
  }
  LabelledLine(out, "tracks", tracks);
  WriteGpuText(GroupGpu(GpuTotals{s.gpu_count, s.gpu_ns}), out);
  WriteDevicesText(s, out);
  LabelledLine(out, "steps", FormatCount(s.steps));
  WriteDiagnosticsText(trace.diagnostics(), out);
}

}  // namespace

int RunInfo(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--json", "--help"}, {}});
  if (parsed && parsed->Has("--help")) {
    out << kInfoUsage;
    return 0;
  }
  if (!parsed || parsed->positionals().size() != 1) {
    err << "stepline info: " << (parsed ? "expected exactly one FILE" : parsed.error()) << "\n" << kInfoUsage;
    return 2;
  }
  std::string path = parsed->positionals().front();
  if (!ChooseTraceArg(&path, "stepline info", err)) return 1;
  const auto start = std::chrono::steady_clock::now();
  CachedTraceLoad load;  // writes the column cache entry after the output
  auto& loaded = load.Load(path);
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!loaded) {
    err << loaded.error().ToString() << "\n";
    return 1;
  }
  const Trace& trace = loaded.value();
  const analysis::TraceSummary summary = analysis::ComputeTraceSummary(trace);
  if (parsed->Has("--json")) {
    WriteInfoJson(trace, summary, load_ms, out);
  } else {
    WriteInfoText(path, trace, summary, load_ms, out);
  }
  return 0;
}

}  // namespace stepline::app
