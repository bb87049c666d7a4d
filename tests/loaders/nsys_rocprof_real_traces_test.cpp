// The Nsight Systems and rocprofv3 traces of ../shared/traces/{nsys,rocprof}:
// every MANIFEST row loads, and its counts equal the facts an independent
// script (tests/data/nsys_rocprof_facts/count_facts.py: Python's sqlite3 and
// json over the raw files) wrote to facts.tsv.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

using ManifestRow = std::map<std::string, std::string>;

std::vector<ManifestRow> ReadManifestTsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<ManifestRow> rows;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream cells_in(line);
    for (std::string cell; std::getline(cells_in, cell, '\t');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    ManifestRow& row = rows.emplace_back();
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
  }
  return rows;
}

std::vector<ManifestRow> Facts() { return ReadManifestTsv(::stepline::testing::TestDataPath("nsys_rocprof_facts/facts.tsv")); }

// The same counts, from the loaded model.
struct ModelFacts {
  int64_t kernels = 0, kernel_ns = 0, collectives = 0, memcpy = 0, memcpy_h2d = 0, memcpy_d2h = 0, memcpy_d2d = 0;
  int64_t memset = 0, sync = 0, runtime = 0, osrt = 0, nvtx_ranges = 0, nvtx_marks = 0, devices = 0, streams = 0;
  int64_t launch_links = 0, first_ns = 0, last_ns = 0;
};

ModelFacts Count(const Trace& t) {
  ModelFacts f;
  std::set<int32_t> devices;
  std::set<uint32_t> streams;
  static const std::set<std::string_view> kRuntime = {"cuda_runtime", "cuda_driver", "hip_api", "hsa_api", "rccl_api"};
  for (size_t i = 0; i < t.slices().size(); ++i) {
    const GpuKind k = t.slices().gpu_kind()[i];
    const TrackId track = t.slices().track()[i];
    const std::string_view category = t.str(t.slices().category()[i]);
    if (k != GpuKind::kNone) {
      devices.insert(t.tracks().device_id(track));
      streams.insert(track.value);
    }
    f.kernels += IsKernelLike(k);
    f.kernel_ns += IsKernelLike(k) ? t.slices().dur_ns()[i] : 0;
    f.collectives += k == GpuKind::kCollective;
    f.memcpy += IsMemcpy(k);
    f.memcpy_h2d += k == GpuKind::kMemcpyH2D;
    f.memcpy_d2h += k == GpuKind::kMemcpyD2H;
    f.memcpy_d2d += k == GpuKind::kMemcpyD2D;
    f.memset += k == GpuKind::kMemset;
    f.sync += category == "cuda_sync";
    f.runtime += kRuntime.count(category);
    f.osrt += category == "osrt";
    const bool host = t.tracks().kind(track) == TrackKind::kHostThread;
    f.nvtx_ranges += host && !kRuntime.count(category) && category != "osrt";
  }
  f.nvtx_marks = static_cast<int64_t>(t.instants().size());
  f.devices = static_cast<int64_t>(devices.size());
  f.streams = static_cast<int64_t>(streams.size());
  for (FlowKind k : t.flows().kind()) f.launch_links += k == FlowKind::kLaunch;
  f.first_ns = t.span().start_ns;
  f.last_ns = t.span().end_ns;
  return f;
}

TEST(NsysRocprofRealTracesTest, FactsMatchTheIndependentCount) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::vector<ManifestRow> facts = Facts();
  ASSERT_GE(facts.size(), 5u) << "cannot read tests/data/nsys_rocprof_facts/facts.tsv";
  for (const ManifestRow& row : facts) {
    const std::string& path = row.at("path");
    SCOPED_TRACE(path);
    auto loaded = LoadFile(::stepline::testing::SharedTracePath(path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Trace& t = *loaded;
    EXPECT_EQ(t.CheckInvariants(), "");
    EXPECT_EQ(t.info().format, path.starts_with("nsys/") ? "nsys-sqlite" : "rocprof-json");
    EXPECT_EQ(t.diagnostics().count(DiagCode::kTruncated), 0u);
    const ModelFacts m = Count(t);
    auto want = [&](const char* key) { return std::stoll(row.at(key)); };
    EXPECT_EQ(m.kernels, want("kernels"));
    EXPECT_EQ(m.kernel_ns, want("kernel_ns"));
    EXPECT_EQ(m.collectives, want("collectives"));
    EXPECT_EQ(m.memcpy, want("memcpy"));
    EXPECT_EQ(m.memcpy_h2d, want("memcpy_h2d"));
    EXPECT_EQ(m.memcpy_d2h, want("memcpy_d2h"));
    EXPECT_EQ(m.memcpy_d2d, want("memcpy_d2d"));
    EXPECT_EQ(m.memset, want("memset"));
    EXPECT_EQ(m.sync, want("sync"));
    EXPECT_EQ(m.runtime, want("runtime"));
    EXPECT_EQ(m.osrt, want("osrt"));
    EXPECT_EQ(m.nvtx_ranges, want("nvtx_ranges"));
    EXPECT_EQ(m.nvtx_marks, want("nvtx_marks"));
    EXPECT_EQ(m.devices, want("devices"));
    EXPECT_EQ(m.streams, want("streams"));
    EXPECT_EQ(m.launch_links, want("launch_links"));
    EXPECT_EQ(m.first_ns, want("first_ns"));
    EXPECT_EQ(m.last_ns, want("last_ns"));
  }
}

// A trace added to either folder without a facts row would go untested; and
// each row's MANIFEST format must be what the sniffer says.
TEST(NsysRocprofRealTracesTest, EveryManifestRowHasFactsAndSniffsAsItsFormat) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  std::set<std::string> with_facts;
  for (const ManifestRow& row : Facts()) with_facts.insert(row.at("path"));
  int checked = 0;
  for (const char* folder : {"nsys", "rocprof"}) {
    const std::vector<ManifestRow> manifest =
        ReadManifestTsv(::stepline::testing::SharedTracePath(std::string(folder) + "/MANIFEST.tsv"));
    ASSERT_FALSE(manifest.empty()) << folder << "/MANIFEST.tsv";
    for (const ManifestRow& m : manifest) {
      const std::string path = std::string(folder) + "/" + m.at("local_path");
      EXPECT_TRUE(with_facts.count(path)) << path << ": run count_facts.py and commit facts.tsv";
      const std::string& format = m.at("format");
      Format want = Format::kUnknown;
      if (format == "nsys-sqlite") want = Format::kNsysSqlite;
      if (format == "rocprofv3-json" || format == "rocprof-json") want = Format::kRocprofJson;
      ASSERT_NE(want, Format::kUnknown) << "unexpected MANIFEST format " << format;
      auto in = OpenInput(::stepline::testing::SharedTracePath(path), nullptr);
      ASSERT_TRUE(in.ok()) << in.error().ToString();
      EXPECT_EQ(SniffFormat(in->bytes.view().substr(0, 128)), want) << path;
      ++checked;
    }
  }
  EXPECT_GE(checked, 5);
}

// The real before/after pair compares as `stepline diff` does: the kernel
// delta of the ops diff equals the difference of the facts' kernel totals.
TEST(NsysRocprofRealTracesTest, BeforeAfterPairCompares) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto a = LoadFile(::stepline::testing::SharedTracePath("nsys/mfu_2gpu_before.sqlite"));
  auto b = LoadFile(::stepline::testing::SharedTracePath("nsys/mfu_2gpu_after.sqlite"));
  ASSERT_TRUE(a.ok() && b.ok());
  analysis::CompareOptions options;
  options.normalize_names = false;
  const analysis::Comparison c = analysis::Compare(*a, *b, options);
  EXPECT_GE(c.a.steps, 1u);
  EXPECT_GE(c.b.steps, 1u);
  ASSERT_FALSE(c.ops.empty());
  DurNs kernel_delta = 0;
  for (const analysis::OpDiffRow& row : c.ops) {
    if (row.kind == analysis::OpKind::kKernel) kernel_delta += row.delta_ns;
  }
  int64_t before = 0, after = 0;
  for (const ManifestRow& row : Facts()) {
    if (row.at("path") == "nsys/mfu_2gpu_before.sqlite") before = std::stoll(row.at("kernel_ns"));
    if (row.at("path") == "nsys/mfu_2gpu_after.sqlite") after = std::stoll(row.at("kernel_ns"));
  }
  EXPECT_EQ(kernel_delta, after - before);
}

}  // namespace
}  // namespace stepline::loaders
