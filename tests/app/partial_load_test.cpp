// A cut file is never analysed silently: the first 300 KB of a real Kineto
// .json.gz loads with a data-loss diagnostic, and the window's banner, the
// session (Open recent), `stepline report` (text and JSON) and `stepline
// diff` (text and JSON) all say so. The expected byte offset is the cut we
// make; the span is the one `stepline info` reports for the cut file.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "app/gui/viewer_session.h"
#include "loaders/load.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"
#include "ui/load_warnings.h"

namespace stepline::app {
namespace {

constexpr const char* kKineto = "kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz";
constexpr size_t kCutBytes = 300'000;

class PartialLoadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STEPLINE_REQUIRE_SHARED_TRACES();
    full_ = testing::SharedTracePath(kKineto);
    dir_ = MakeScratchDir("partial-load");
    cut_ = (dir_ / "resnet50_cut.json.gz").string();
    std::ifstream in(full_, std::ios::binary);
    std::string bytes(kCutBytes, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    ASSERT_EQ(static_cast<size_t>(in.gcount()), kCutBytes);
    std::ofstream(cut_, std::ios::binary) << bytes;
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::string full_, cut_;
  std::filesystem::path dir_;
};

TEST_F(PartialLoadTest, BannerNamesTheCutInTheFile) {
  auto cut = loaders::LoadFile(cut_);
  ASSERT_TRUE(cut) << cut.error().ToString();
  EXPECT_TRUE(cut.value().diagnostics().has_data_loss());
  const std::string banner = ui::DataLossBanner(cut.value());
  EXPECT_EQ(banner.rfind("This file ends early at byte 300,000 (gzip stream cut): ", 0), 0u) << banner;
  EXPECT_NE(banner.find("the analysis covers what was loaded"), std::string::npos) << banner;
  auto full = loaders::LoadFile(full_);
  ASSERT_TRUE(full);
  EXPECT_FALSE(full.value().diagnostics().has_data_loss());
  EXPECT_EQ(ui::DataLossBanner(full.value()), "");
}

TEST_F(PartialLoadTest, ReportPrintsTheDiagnosticsFirst) {
  const RunOutput text = RunCommand(RunReport, {cut_});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.rfind("WARNING: This file ends early at byte 300,000 (gzip stream cut)", 0), 0u) << text.out;
  EXPECT_LT(text.out.find("data_loss truncated x1"), text.out.find("\nfile ")) << "before the report's first line";
  const RunOutput json = RunCommand(RunReport, {cut_, "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto doc = stepline::ParseJson(json.out);
  ASSERT_TRUE(doc) << json.out.substr(0, 200);
  ASSERT_NE(doc->Find("partial"), nullptr);
  EXPECT_TRUE(doc->Find("partial")->boolean);
  const stepline::JsonValue& diagnostics = Member(*doc, "diagnostics");
  ASSERT_EQ(diagnostics.items.size(), 1u);
  EXPECT_EQ(Member(diagnostics.items[0], "severity").text, "data_loss");
  EXPECT_EQ(Member(diagnostics.items[0], "code").text, "truncated");
  EXPECT_NE(Member(*doc, "data_loss").text.find("byte 300,000"), std::string::npos);
  // A whole file: no warning line, partial false, the key still there.
  const RunOutput good = RunCommand(RunReport, {full_, "--json"});
  const auto good_doc = stepline::ParseJson(good.out);
  ASSERT_TRUE(good_doc);
  EXPECT_FALSE(Member(*good_doc, "partial").boolean);
  EXPECT_TRUE(Member(*good_doc, "data_loss").is_null());
}

TEST_F(PartialLoadTest, DiffSaysWhichSideIsPartial) {
  const RunOutput text = RunCommand(RunDiff, {full_, cut_});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(text.out.find("WARNING: A "), std::string::npos) << "A is whole";
  EXPECT_EQ(text.out.rfind("WARNING: B (" + cut_ + ") is partial: This file ends early at byte 300,000", 0), 0u)
      << text.out.substr(0, 300);
  const RunOutput json = RunCommand(RunDiff, {full_, cut_, "--json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const auto doc = stepline::ParseJson(json.out);
  ASSERT_TRUE(doc) << json.out.substr(0, 200);
  EXPECT_FALSE(Member(Member(*doc, "a_load"), "partial").boolean);
  EXPECT_TRUE(Member(Member(*doc, "b_load"), "partial").boolean);
}

TEST_F(PartialLoadTest, APartialLoadIsShownButNotAddedToOpenRecent) {
  const std::string recent_path = (dir_ / "recent.txt").string();
  ViewerSession session{RecentFiles(recent_path)};
  auto settle = [&] {
    for (int i = 0; i < 2000 && session.loading(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    session.PollLoads();
  };
  session.OpenFile(cut_);
  settle();
  ASSERT_NE(session.state().trace(), nullptr) << session.error();
  EXPECT_TRUE(session.state().trace()->diagnostics().has_data_loss());
  EXPECT_EQ(session.WindowTitle(), "resnet50_cut.json.gz \u2014 Stepline");
  EXPECT_TRUE(RecentFiles(recent_path).list().empty());
  session.OpenFile(full_);
  settle();
  ASSERT_EQ(RecentFiles(recent_path).list().size(), 1u);
  EXPECT_EQ(std::filesystem::path(RecentFiles(recent_path).list()[0]).filename(),
            std::filesystem::path(full_).filename());
}

}  // namespace
}  // namespace stepline::app
