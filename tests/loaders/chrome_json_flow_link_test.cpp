// Chrome JSON flow linking: the post-pass that sorts flow events and binds
// launch flows through the correlation table gives the same flows and the
// same diagnostics on one thread and on two (where a second thread builds
// the table, sorts half the launch flows and links half the chains).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"

namespace stepline::loaders {
namespace {

// Launch pairs, each: a runtime call and a kernel carrying the correlation,
// and an ac2g s/f pair. As Kineto writes them, host events (calls, "s") come
// first and device events (kernels, "f") after them, so every chain spans
// the input. Variations by index put every chain case in the sorts: equal
// timestamps, a chain started twice, an end with no start, a start never
// ended, an id with no correlated slice (binds by time), chains wholly
// among the host events, and generic s/t/f chains at one timestamp.
std::string FlowHeavyTrace(int pairs) {
  std::ostringstream s;
  s << R"({"traceEvents": [)" << "\n";
  s << R"({"ph": "M", "name": "process_labels", "pid": 0, "args": {"labels": "GPU 0"}})";
  auto ts_of = [](int i) { return 1000 + i * 20L; };
  auto corr_of = [](int i) { return (i % 97 == 5) ? 10'000'000 + i : i; };  // some flows name no slice
  auto start = [&](int i) {
    s << ",\n"
      << R"({"ph": "s", "id": )" << corr_of(i) << R"(, "cat": "ac2g", "name": "ac2g", "pid": 1, "tid": 1, "ts": )"
      << ts_of(i) << "}";
  };
  auto end = [&](int i) {
    s << ",\n"
      << R"({"ph": "f", "id": )" << corr_of(i) << R"(, "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": 7, "ts": )"
      << (i % 11 == 3 ? ts_of(i) : ts_of(i) + 6) << R"(, "bp": "e"})";
  };
  for (int i = 0; i < pairs; ++i) {
    s << ",\n"
      << R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" << ts_of(i)
      << R"(, "dur": 4, "args": {"correlation": )" << i << "}}";
    if (i % 103 == 9) continue;  // no start
    start(i);
    if (i % 101 == 7) start(i);  // started twice
    if (i % 13 == 4) end(i);     // some chains sit wholly among the host events
    if (i % 5 == 0) {  // a generic chain s -> t -> f on the host thread
      for (const char* ph : {"s", "t", "f"}) {
        s << ",\n"
          << R"({"ph": ")" << ph << R"(", "id": )" << i / 5 << R"(, "cat": "user", "name": "q", "pid": 1, "tid": 1, "ts": )"
          << ts_of(i) + 1 << "}";
      }
    }
  }
  for (int i = 0; i < pairs; ++i) {
    s << ",\n"
      << R"({"ph": "X", "cat": "kernel", "name": "k)" << i % 7 << R"(", "pid": 0, "tid": 7, "ts": )" << ts_of(i) + 6
      << R"(, "dur": 9, "args": {"correlation": )" << i << "}}";
    if (i % 107 == 11 || i % 13 == 4) continue;  // never ended, or ended above
    end(i);
  }
  s << "\n]}\n";
  return s.str();
}

std::string FlowsAndDiagnostics(std::string_view json, int threads) {
  auto input = DecodeBytes(json, "flows.json", nullptr);
  EXPECT_TRUE(input.ok());
  LoadOptions options;
  options.threads = threads;
  auto trace = LoadChromeJson(*input, "flows.json", options, nullptr);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
  if (!trace.ok()) return {};
  const Trace& t = *trace;
  std::ostringstream out;
  auto slice = [&](SliceId id) {
    const size_t i = id.index();
    return std::to_string(t.slices().start_ns()[i]) + ":" + std::string(t.str(t.slices().name()[i]));
  };
  for (size_t i = 0; i < t.flows().size(); ++i) {
    out << static_cast<int>(t.flows().kind()[i]) << " " << slice(t.flows().from()[i]) << " -> "
        << slice(t.flows().to()[i]) << "\n";
  }
  for (const Diagnostics::Entry* e : t.diagnostics().NonEmpty()) {
    out << "diag " << GetDiagCodeInfo(e->code).name << " x" << e->count << " @" << e->first_offset << "\n";
    for (const auto& inst : e->instances) out << "  @" << inst.byte_offset << " " << inst.detail << "\n";
  }
  return out.str();
}

TEST(ChromeJsonFlowLinkTest, TwoThreadsLinkTheSameFlowsAsOne) {
  // 40,000 pairs: about 80,000 launch flow events, above the size at which
  // the post-pass uses a second thread.
  const std::string json = FlowHeavyTrace(40000);
  const std::string one = FlowsAndDiagnostics(json, 1);
  ASSERT_GT(one.size(), 100000u);
  EXPECT_NE(one.find("cudaLaunchKernel -> "), std::string::npos);  // launch flows bound to the call
  EXPECT_NE(one.find("started again before it ended"), std::string::npos);
  EXPECT_NE(one.find("never ended"), std::string::npos);
  // Compared line by line: a failure names the first differing flow rather
  // than diffing two megabytes of text.
  std::istringstream a(one), b(FlowsAndDiagnostics(json, 2));
  std::string line_a, line_b;
  for (int line = 1; std::getline(a, line_a); ++line) {
    ASSERT_TRUE(std::getline(b, line_b)) << "two threads: fewer lines, the first missing is " << line;
    ASSERT_EQ(line_b, line_a) << "line " << line;
  }
  EXPECT_FALSE(std::getline(b, line_b)) << "two threads: more lines";
}

}  // namespace
}  // namespace stepline::loaders
