// The step chart as SVG: a well-formed standalone document (balanced tags,
// a viewBox), one rect per step segment, the app's category colours and a
// legend entry per category that occurs.
#include "ui/step_chart_svg.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace stepline::ui {
namespace {

using analysis::TimeCategory;

// Checks that every tag closes in order; returns "" or what went wrong.
std::string CheckBalanced(const std::string& xml) {
  std::vector<std::string> open;
  size_t i = 0;
  while ((i = xml.find('<', i)) != std::string::npos) {
    const size_t end = xml.find('>', i);
    if (end == std::string::npos) return "unterminated tag";
    const std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty()) return "empty tag";
    if (tag[0] == '?' || tag[0] == '!') continue;
    if (tag.back() == '/') continue;  // self-closing
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \t\n") - (tag[0] == '/' ? 1 : 0));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) return "unexpected </" + name + ">";
      open.pop_back();
    } else {
      open.push_back(name);
    }
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t i = text.find(needle); i != std::string::npos; i = text.find(needle, i + 1)) ++n;
  return n;
}

analysis::ReportStep Step(std::initializer_list<std::pair<TimeCategory, DurNs>> parts) {
  analysis::ReportStep s;
  for (auto [c, ns] : parts) {
    s.breakdown[static_cast<size_t>(c)] = ns;
    s.dur_ns += ns;
  }
  return s;
}

analysis::Report FourStepReport() {
  analysis::Report r;
  r.primary_device = "GPU 0";
  r.steps = {Step({{TimeCategory::kCompute, 5'000'000}, {TimeCategory::kIdleInput, 3'000'000}}),
             Step({{TimeCategory::kCompute, 6'000'000}}),
             Step({{TimeCategory::kCompute, 4'000'000},
                   {TimeCategory::kMemcpyH2D, 1'000'000},
                   {TimeCategory::kIdleSync, 2'000'000}}),
             Step({{TimeCategory::kCompute, 7'000'000}})};
  for (const auto& s : r.steps) {
    for (size_t c = 0; c < s.breakdown.size(); ++c) r.breakdown_total[c] += s.breakdown[c];
  }
  return r;
}

TEST(StepChartSvgTest, WellFormedWithViewBox) {
  StepChartSvgOptions o;
  o.width = 800;
  o.height = 300;
  o.title = "Step time <GPU 0> & co";
  const std::string svg = BuildStepChartSvg(FourStepReport(), o);
  EXPECT_EQ(CheckBalanced(svg), "");
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("viewBox=\"0 0 800 300\""), std::string::npos);
  EXPECT_NE(svg.find("Step time &lt;GPU 0&gt; &amp; co"), std::string::npos);
  EXPECT_EQ(svg.find("<GPU 0>"), std::string::npos);
}

TEST(StepChartSvgTest, OneRectPerSegmentInTheAppColours) {
  const std::string svg = BuildStepChartSvg(FourStepReport(), {});
  // 2 + 1 + 3 + 1 non-empty categories over the four steps.
  EXPECT_EQ(Occurrences(svg, "class=\"seg\""), 7u);
  // The mean bar: compute, memcpy H2D, idle input, idle sync.
  EXPECT_EQ(Occurrences(svg, "class=\"mean-seg\""), 4u);
  // Compute is the kernel green of the timeline, rgb(76, 175, 80).
  EXPECT_EQ(Occurrences(svg, "fill=\"#4caf50\""), 4u + 1u + 1u);  // steps, mean, legend
  // A legend swatch and label for each of the four categories present.
  EXPECT_EQ(Occurrences(svg, "class=\"swatch\""), 4u);
  EXPECT_NE(svg.find(">Idle: input<"), std::string::npos);
  EXPECT_EQ(svg.find(">Memset<"), std::string::npos);
}

TEST(StepChartSvgTest, ManyStepsAreBucketedAndStayWellFormed) {
  analysis::Report r;
  for (int i = 0; i < 5000; ++i) r.steps.push_back(Step({{TimeCategory::kCompute, 1'000 + i}}));
  r.breakdown_total[0] = 1;
  const std::string svg = BuildStepChartSvg(r, {});
  EXPECT_EQ(CheckBalanced(svg), "");
  const size_t segs = Occurrences(svg, "class=\"seg\"");
  EXPECT_GT(segs, 50u);
  EXPECT_LT(segs, 400u) << "bars narrower than 3 px should be grouped";
  EXPECT_NE(svg.find("per bar (mean)"), std::string::npos);
}

TEST(StepChartSvgTest, NoStepsGivesAValidNote) {
  const std::string svg = BuildStepChartSvg(analysis::Report{}, {});
  EXPECT_EQ(CheckBalanced(svg), "");
  EXPECT_EQ(Occurrences(svg, "class=\"seg\""), 0u);
  EXPECT_NE(svg.find("No steps"), std::string::npos);
}

}  // namespace
}  // namespace stepline::ui
