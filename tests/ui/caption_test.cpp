// The caption under saved pictures: file name, visible range from the
// trace's first event, and the step(s) in view; and the toast's fade.
#include "ui/caption.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/analysis/headline.h"
#include "tests/support/synthetic_trace.h"
#include "ui/headline_text.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/viewport.h"
#include "ui/toast.h"

namespace stepline::ui {
namespace {

using testing::Us;

// Four 1 ms steps starting at 10 ms on the trace clock, one kernel each.
std::shared_ptr<const TimelineData> FourSteps() {
  testing::SyntheticTrace b;
  for (int i = 0; i < 4; ++i) {
    const TimeNs base = Us(10'000 + i * 1'000);
    b.Thread("main").Slice("ProfilerStep#" + std::to_string(i), base, Us(900));
    b.Kernel(7, base + Us(100), Us(500), "gemm").LaunchedFrom("main", base + Us(50));
  }
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(b.Build()));
}

TEST(CaptionTest, NamesFileRangeAndStepsInView) {
  ViewState state;
  state.data = FourSteps();
  ASSERT_EQ(state.data->analysis.report.steps.size(), 4u);
  const TimeNs origin = state.trace()->span().start_ns;
  ASSERT_EQ(origin, Us(10'000));
  // 1.2 ms .. 2.5 ms after the first event: overlaps steps 1 and 2.
  state.viewport.visible = TimeRange{origin + Us(1'200), origin + Us(2'500)};
  const std::string c = BuildCaption("run.json.gz", state);
  EXPECT_EQ(c.rfind("run.json.gz", 0), 0u) << c;
  EXPECT_NE(c.find("1.200 ms - 2.500 ms"), std::string::npos) << c;
  EXPECT_NE(c.find("(1.300 ms)"), std::string::npos) << c;
  EXPECT_NE(c.find("steps ProfilerStep#1 - ProfilerStep#2 (2)"), std::string::npos) << c;
}

TEST(CaptionTest, FocusedStepWinsAndWholeTraceSaysAll) {
  ViewState state;
  state.data = FourSteps();
  const TimeRange span = state.trace()->span();
  state.viewport.visible = span;
  EXPECT_NE(BuildCaption("a", state).find("all 4 steps"), std::string::npos);
  state.links.focused_step = 3;
  EXPECT_NE(BuildCaption("a", state).find("step ProfilerStep#3"), std::string::npos);
}

TEST(CaptionTest, RangeIsClippedToTheTrace) {
  ViewState state;
  state.data = FourSteps();
  const TimeRange span = state.trace()->span();
  state.viewport.visible = TimeRange{span.start_ns - Us(500), span.end_ns + Us(500)};
  const std::string c = BuildCaption("a", state);
  EXPECT_NE(c.find("view 0 ns - " + std::string("3.900 ms")), std::string::npos) << c;
  EXPECT_EQ(c.find("-500"), std::string::npos) << c;
}

// The caption and the ruler's length label read one range: the view cut to
// the trace (they once said 1.173 s and 1.220 s of the same view).
TEST(CaptionTest, ViewRangeIsTheOneTheRulerLabelReads) {
  ViewState state;
  state.data = FourSteps();
  const TimeRange span = state.trace()->span();
  state.viewport.visible = TimeRange{span.start_ns - Us(200), span.end_ns + Us(300)};
  const TimeRange shown = VisibleTraceRange(state.viewport, span);
  EXPECT_EQ(shown.start_ns, span.start_ns);
  EXPECT_EQ(shown.end_ns, span.end_ns);
  const std::string c = BuildCaption("a", state);
  EXPECT_NE(c.find("(" + FormatDuration(shown.duration_ns()) + ")"), std::string::npos) << c;
  // A view wholly past the trace shows none of it.
  state.viewport.visible = TimeRange{span.end_ns + Us(10), span.end_ns + Us(20)};
  EXPECT_EQ(VisibleTraceRange(state.viewport, span).duration_ns(), 0);
}

// The caption's device busy is the headline figure, drawn through the one helper.
TEST(CaptionTest, DeviceBusyIsTheHeadlineFigure) {
  ViewState state;
  state.data = FourSteps();
  state.viewport.visible = state.trace()->span();
  std::vector<DrawnHeadline> drawn;
  RecordHeadlines(&drawn);
  const std::string c = BuildCaption("a", state);
  RecordHeadlines(nullptr);
  const analysis::Headline h = analysis::ComputeHeadline(state.data->analysis.report);
  ASSERT_EQ(drawn.size(), 1u) << c;
  EXPECT_EQ(drawn[0].view, "caption");
  EXPECT_EQ(drawn[0].figure, analysis::HeadlineFigure::kDeviceBusy);
  EXPECT_NE(c.find("GPU busy " + analysis::HeadlineText(h, analysis::HeadlineFigure::kDeviceBusy)), std::string::npos)
      << c;
}

TEST(CaptionTest, WholeTraceIgnoresTheView) {
  ViewState state;
  state.data = FourSteps();
  state.viewport.visible = TimeRange{};  // never drawn
  const std::string c = BuildCaption("a", state, /*whole_trace=*/true);
  EXPECT_NE(c.find("whole trace (3.900 ms)"), std::string::npos) << c;
  EXPECT_NE(c.find("all 4 steps"), std::string::npos) << c;
}

TEST(CaptionTest, NoTraceIsJustTheTitle) {
  ViewState state;
  EXPECT_EQ(BuildCaption("x.json", state), "x.json");
}

TEST(ToastTest, HoldsThenFadesOut) {
  EXPECT_FLOAT_EQ(ToastAlpha(0), 1.f);
  EXPECT_FLOAT_EQ(ToastAlpha(kToastHoldS), 1.f);
  EXPECT_NEAR(ToastAlpha(kToastHoldS + kToastFadeS / 2), 0.5f, 1e-6);
  EXPECT_FLOAT_EQ(ToastAlpha(kToastHoldS + kToastFadeS), 0.f);
  EXPECT_FLOAT_EQ(ToastAlpha(60), 0.f);
}

}  // namespace
}  // namespace stepline::ui
