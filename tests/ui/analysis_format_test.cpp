// Shared small widgets: text cut to a width with "...".
#include "ui/analysis_format.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include "tests/support/headless_imgui.h"

namespace stepline::ui {
namespace {

TEST(FitTextTest, WholeWhenItFitsElseCutWithDotsWithinTheWidth) {
  stepline::testing::HeadlessImGui imgui(ImVec2(800, 600));
  ImGui::NewFrame();
  const float font = ImGui::GetFontSize();
  const std::string name = "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>";
  EXPECT_EQ(FitText(name, 10000, font), name);
  const float width = ImGui::CalcTextSize(name.c_str()).x / 2;
  const std::string cut = FitText(name, width, font);
  ASSERT_GT(cut.size(), 3u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
  EXPECT_EQ(name.rfind(cut.substr(0, cut.size() - 3), 0), 0u) << "a prefix of the name";
  EXPECT_LE(ImGui::CalcTextSize(cut.c_str()).x, width);
  // Never half a UTF-8 character: "µ" is two bytes.
  const std::string micro = "12.5 \u00b5s \u00b5s \u00b5s \u00b5s";
  for (float w = 5; w < ImGui::CalcTextSize(micro.c_str()).x; w += 1) {
    const std::string c = FitText(micro, w, font);
    const std::string body = c.size() >= 3 && c.substr(c.size() - 3) == "..." ? c.substr(0, c.size() - 3) : c;
    if (!body.empty()) {
      EXPECT_NE(static_cast<unsigned char>(body.back()) & 0xC0, 0xC0) << "a lead byte without its tail: " << c;
    }
  }
  ImGui::Render();
}

}  // namespace
}  // namespace stepline::ui
