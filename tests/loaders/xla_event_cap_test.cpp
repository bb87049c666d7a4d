// XLA's trace viewer event cap (loaders/chrome_json/xla_event_cap.h): a
// trace-viewer JSON written the way XLA's converter writes it, with exactly
// 1,000,000 complete events (the default cap), is marked cut at its last
// recorded start; the same file one event short is not. The tally rule is
// checked on its own for both converters (exact cap; ties kept past it).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "loaders/chrome_json/xla_event_cap.h"
#include "loaders/load.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::testing {
namespace {

using loaders::CompleteEventTally;
using loaders::XlaEventCapReached;

CompleteEventTally CapTally(uint64_t complete, uint64_t at_last_start, uint64_t other = 0) {
  CompleteEventTally t;
  t.complete = complete;
  t.at_last_start = at_last_start;
  t.other = other;
  t.last_start_ns = 1;
  return t;
}

TEST(XlaEventCap, TheTallyEndsAtACapOrNot) {
  EXPECT_EQ(XlaEventCapReached(CapTally(1'000'000, 1)), 1'000'000u);
  EXPECT_EQ(XlaEventCapReached(CapTally(5'000'000, 3)), 5'000'000u);
  EXPECT_EQ(XlaEventCapReached(CapTally(999'999, 1)), 0u);
  EXPECT_EQ(XlaEventCapReached(CapTally(1'000'001, 1)), 0u);  // more than the cap, no tie: not capped
  // The older converter kept every event tied with the cutoff start.
  EXPECT_EQ(XlaEventCapReached(CapTally(1'000'004, 5)), 1'000'000u);
  EXPECT_EQ(XlaEventCapReached(CapTally(1'000'000, 1, /*other=*/1)), 0u);  // a B/E or counter: not the converter
}

TEST(XlaEventCap, TalliesTheLastStart) {
  CompleteEventTally t;
  t.NoteComplete(30);
  t.NoteComplete(10);
  t.NoteComplete(30);
  t.NoteComplete(20);
  EXPECT_EQ(t.complete, 4u);
  EXPECT_EQ(t.last_start_ns, 30);
  EXPECT_EQ(t.at_last_start, 2u);
}

// The converter's layout: top-level keys, M events naming a host and a GPU,
// then `events` X events (2 of 3 on the host thread, 1 of 3 on the GPU
// stream), the i-th starting at i µs and lasting 0.5 µs (the last two 10 µs,
// so that both rows end well after the last start), and the closing {}.
std::string CapJson(size_t events) {
  std::string json = R"({"displayTimeUnit":"ns","metadata":{"highres-ticks":true},"traceEvents":[)";
  json += R"({"ph":"M","pid":1,"name":"process_name","args":{"name":"/host:CPU"}},)";
  json += R"({"ph":"M","pid":1,"name":"process_sort_index","args":{"sort_index":1}},)";
  json += R"({"ph":"M","pid":1,"tid":5,"name":"thread_name","args":{"name":"python"}},)";
  json += R"({"ph":"M","pid":1001,"name":"process_name","args":{"name":"/device:GPU:0"}},)";
  json += R"j({"ph":"M","pid":1001,"tid":7,"name":"thread_name","args":{"name":"Stream #7(Compute)"}},)j";
  json.reserve(json.size() + events * 60);
  for (size_t i = 0; i < events; ++i) {
    const bool gpu = i % 3 == 2;
    json += gpu ? R"({"ph":"X","pid":1001,"tid":7,"ts":)" : R"({"ph":"X","pid":1,"tid":5,"ts":)";
    json += std::to_string(i);
    json += i + 2 >= events ? R"(,"dur":10)" : R"(,"dur":0.5)";
    json += gpu ? R"(,"name":"fusion"},)" : R"(,"name":"op"},)";
  }
  json += "{}]}";
  return json;
}

TEST(XlaEventCap, AFileAtTheCapIsCutAtItsLastRecordedStart) {
  auto r = loaders::LoadBytes(CapJson(1'000'000), "host.trace.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  const Trace& t = *r;
  EXPECT_EQ(t.slices().size(), 1'000'000u);
  EXPECT_EQ(t.info().event_cap, 1'000'000u);
  EXPECT_EQ(t.info().recorded_until_ns, 999'999'000);
  EXPECT_TRUE(t.diagnostics().has_data_loss());
  const Diagnostics::Entry& cut = t.diagnostics().entry(DiagCode::kTruncated);
  ASSERT_EQ(cut.count, 1u);
  EXPECT_EQ(cut.first_offset, Diagnostics::kNoOffset);  // the file itself is whole
  EXPECT_EQ(cut.instances.front().detail.rfind(
                "XLA's trace viewer stopped at 1,000,000 events (TF_PROFILER_TRACE_VIEWER_MAX_EVENTS)", 0),
            0u)
      << cut.instances.front().detail;
  // Figures stop at the last recorded start: a step ending after it is not
  // complete, though both rows' last events reach past its end.
  analysis::StepSet steps;
  for (const auto& [start, dur] : {std::pair<TimeNs, DurNs>{0, 999'999'000}, {999'999'000, 5'000}}) {
    analysis::Step step;
    step.start_ns = start;
    step.dur_ns = dur;
    steps.steps.push_back(step);
  }
  EXPECT_EQ(analysis::CompleteStepCount(t, steps), 1u);
}

TEST(XlaEventCap, OneEventShortOfTheCapIsWhole) {
  auto r = loaders::LoadBytes(CapJson(999'999), "host.trace.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->info().event_cap, 0u);
  EXPECT_EQ(r->diagnostics().count(DiagCode::kTruncated), 0u);
  EXPECT_FALSE(r->diagnostics().has_data_loss());
}

}  // namespace
}  // namespace stepline::testing
