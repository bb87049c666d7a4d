// PyTorch's Perfetto output is the JSON trace's events in Perfetto's layout
// (loaders/perfetto/kineto_layout.h). Each shared Kineto trace below is
// rewritten in that layout by a converter in the tests
// (tests/support/kineto_perfetto_convert.h), gzip-wrapped under a .pftrace
// name as PyTorch writes it, and `stepline info --json` and `report --json`
// of the two files must agree: GPU counts and times, streams, steps, the
// breakdown, gaps, idle causes, ops and kernels.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/kineto_perfetto_convert.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::JsonValue;
using ::stepline::ParseJson;

std::string KpeGunzip(const std::string& bytes) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

std::string KpeGzip(const std::string& bytes) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Paths (a.b.c, arrays as [i]) where the two values differ, except under
// `skipped` keys; at most 20.
void KpeDiff(const JsonValue& a, const JsonValue& b, const std::string& path, const std::vector<std::string>& skipped,
             std::vector<std::string>* out) {
  if (out->size() >= 20) return;
  if (a.type != b.type) {
    out->push_back(path + ": type differs");
    return;
  }
  switch (a.type) {
    case JsonValue::Type::kObject: {
      const auto is_skipped = [&](const std::string& k) {
        for (const std::string& s : skipped) {
          if (s == k || s == path + "." + k) return true;
        }
        return false;
      };
      std::vector<std::string> ka = a.Keys(), kb = b.Keys();
      std::erase_if(ka, is_skipped);
      std::erase_if(kb, is_skipped);
      if (ka != kb) {
        std::string list;
        for (const std::string& k : kb) list += " " + k;
        out->push_back(path + ": keys differ; the Perfetto file's:" + list);
      }
      for (const std::string& k : ka) {
        const JsonValue* vb = b.Find(k);
        if (vb != nullptr) KpeDiff(*a.Find(k), *vb, path + "." + k, skipped, out);
      }
      break;
    }
    case JsonValue::Type::kArray:
      if (a.items.size() != b.items.size()) {
        out->push_back(path + ": " + std::to_string(a.items.size()) + " vs " + std::to_string(b.items.size()) +
                       " items");
        return;
      }
      for (size_t i = 0; i < a.items.size(); ++i)
        KpeDiff(a.items[i], b.items[i], path + "[" + std::to_string(i) + "]", skipped, out);
      break;
    default:
      if (a.text != b.text || a.boolean != b.boolean) out->push_back(path + ": " + a.text + " vs " + b.text);
  }
}

std::string KpeJoin(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += "  " + l + "\n";
  return s;
}

// Small traces that together hold kernels, copies, memsets, several streams,
// runtime launches, GPU annotations, ProfilerStep#N steps and AMD's HIP
// names; each converts and loads in well under a second.
constexpr const char* kKpeTraces[] = {
    "hta/critical_path_alexnet_benchmark_result_2869224_1695835535_trace.json.gz",
    "hta/critical_path_cuda_event_sync_multi_stream_event_sync_trace.json.gz",
    "hta/amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "hta/with_gpu_user_annotation_step_based_trace_2543932.json.gz",
    "tracelens/h100_bert-small-uncased.json.gz",
};

TEST(KinetoPerfettoEquivalenceTest, InfoAndReportEqualThoseOfTheJsonOriginal) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const fs::path dir = MakeScratchDirRemovedAtExit("kineto-perfetto");
  size_t compared = 0;
  for (const char* relative : kKpeTraces) {
    const std::string json_path = ::stepline::testing::SharedTracePath(relative);
    if (!fs::exists(json_path)) continue;
    SCOPED_TRACE(relative);
    const auto converted = ::stepline::testing::ConvertKinetoJsonToPerfetto(KpeGunzip(ReadFile(json_path)));
    ASSERT_EQ(converted.error, "");
    ASSERT_GT(converted.launch_flow_ids, 0u);  // the layout's launches are there to be found
    const std::string pf_path = (dir / (fs::path(relative).stem().stem().string() + ".pftrace")).string();
    std::ofstream(pf_path, std::ios::binary) << KpeGzip(converted.bytes);

    for (const bool report : {false, true}) {
      const auto run = report ? RunReport : RunInfo;
      const RunOutput a = RunCommand(run, Args{json_path, "--json"});
      const RunOutput b = RunCommand(run, Args{pf_path, "--json"});
      ASSERT_EQ(a.code, 0) << a.err;
      ASSERT_EQ(b.code, 0) << b.err;
      const auto ja = ParseJson(a.out), jb = ParseJson(b.out);
      ASSERT_TRUE(ja && jb);
      // What the layout does not carry (flow arrows, counters, process- and
      // global-scope instants, and the JSON's top-level metadata:
      // distributedInfo makes rank_summary, deviceProperties the memory
      // capacity and the device's name, so its peak and MFU) and what names
      // the file.
      const std::vector<std::string> skipped =
          report ? std::vector<std::string>{"diagnostics", "partial", "data_loss", "path", "notes", "rank_summary",
                                            "capacity_bytes", "device_name", "peak_tflops", "peak_dtype",
                                            "peak_source", "peak_datasheet", "mfu_percent"}
                 : std::vector<std::string>{"format",    "bytes",          "load_ms",      "flows",
                                            "instants",  "counter_samples", "diagnostics", "span_ns",
                                            ".tracks.counter", ".tracks.markers", "path", "file_bytes",
                                            "compression", "memory_events", "memory"};
      std::vector<std::string> diffs;
      KpeDiff(*ja, *jb, "", skipped, &diffs);
      EXPECT_TRUE(diffs.empty()) << (report ? "report" : "info") << " --json differs:\n" << KpeJoin(diffs);
      if (!report) {
        EXPECT_GT(Number(Member(Member(*jb, "tracks"), "gpu_stream")), 0);
        EXPECT_GT(Number(Member(Member(*jb, "gpu"), "kernel")), 0);
      }
    }
    ++compared;
  }
  if (compared == 0) GTEST_SKIP() << "none of the Kineto traces of this test is in the shared traces";
}

}  // namespace
}  // namespace stepline::app
