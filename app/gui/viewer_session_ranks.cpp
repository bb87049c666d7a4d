// ViewerSession: rank sets (loaded on a thread of their own into the ranks
// view) and dropped files (a folder of ranks, two runs to compare, or the
// "Compare with the current trace?" question); see viewer_session.h. In a
// file of its own so viewer_session.cpp stays short.
#include "app/gui/viewer_session.h"

#include <algorithm>
#include <filesystem>
#include <new>
#include <sstream>
#include <system_error>
#include <thread>

#include "app/runs/profile_runs.h"
#include "app/runs/rank_set.h"
#include "app/runs/rank_set_memory.h"
#include "loaders/memory_estimate.h"

namespace stepline::app {

namespace {
// Ranks loaded at once by the window's ranks job (and so held at once).
int RanksJobThreads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }
}  // namespace

void ViewerSession::OpenRanks(const std::vector<std::string>& paths, const std::string& title,
                              const std::string& run_dir) {
  if (AskBeforeRanks(paths, title, run_dir)) return;  // what is shown stays until the answer
  StartRanks(paths, title, run_dir);
}

bool ViewerSession::AskBeforeRanks(const std::vector<std::string>& paths, const std::string& title,
                                   const std::string& run_dir) {
  std::string warning = RankSetMemoryWarning(title, paths, RanksJobThreads(), run_dir, memory_budget_());
  if (warning.empty()) return false;
  MemoryQuestion q;
  q.warning = std::move(warning);
  q.whole = MemoryQuestion::Whole::kRanks;
  q.paths = paths;
  q.title = title;
  q.run_dir = run_dir;
  AskMemory(std::move(q));
  return true;
}

void ViewerSession::StartRanks(const std::vector<std::string>& paths, const std::string& title,
                               const std::string& run_dir) {
  ranks_job_title_ = title;
  ranks_job_paths_ = paths;
  status_.notice = "Loading the ranks of " + title + (run_dir.empty() ? "" : " (run " + run_dir + ")") + "...";
  try {
    ranks_job_ = StartRanksJob(paths, run_dir);
  } catch (const std::exception&) {  // std::system_error: no thread for it (no memory for its stack); std::bad_alloc
    status_.error = title + ": " + loaders::OutOfMemoryMessage("starting to load the ranks", loaders::MemoryEstimate{});
  }
}

std::future<ViewerSession::RanksOutcome> ViewerSession::StartRanksJob(const std::vector<std::string>& paths,
                                                                      const std::string& run_dir) {
  return std::async(std::launch::async, [paths, run_dir] {
    RanksOutcome out;
    try {
      auto run = std::make_shared<RanksRun>();
      std::ostringstream log;  // other runs of a TensorBoard tree: not shown in the window
      out.error = LoadRankSet(paths, RanksJobThreads(), run.get(), log, run_dir);
      out.run = std::move(run);
    } catch (const std::exception& e) {
      // The ranks view fails alone; the window and what it shows stay.
      // std::bad_alloc, or std::system_error: a rank's thread did not start.
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr ||
                          dynamic_cast<const std::system_error*>(&e) != nullptr;
      out.run.reset();
      out.error = memory ? loaders::OutOfMemoryMessage("loading the ranks", loaders::MemoryEstimate{}) : e.what();
    }
    return out;
  });
}

//-----------------------------------------------------------------------------
// [SECTION] Drops
//-----------------------------------------------------------------------------

void ViewerSession::HandleDrops(const std::vector<std::string>& dropped_files) {
  if (dropped_files.empty()) return;
  // A dropped directory holding a run of several ranks (or hosts): all of them side by side.
  std::error_code ec;
  if (dropped_files.size() == 1 && std::filesystem::is_directory(dropped_files.front(), ec)) {
    auto runs = FindProfileRuns(dropped_files.front());
    if (runs && runs->front().traces.size() >= 2) {
      OpenRanks({dropped_files.front()}, dropped_files.front());
      return;
    }
  }
  if (dropped_files.size() >= 2) {
    OpenCompare(dropped_files[0], dropped_files[1]);
    if (dropped_files.size() > 2) {
      status_.notice = "Comparing the first two of " + std::to_string(dropped_files.size()) + " dropped files";
    }
    return;
  }
  if (comparing_) {
    drop_.Ask(ui::DropQuestion::kReplaceWhich, dropped_files.front(), "");
  } else if (state_.data) {
    drop_.Ask(ui::DropQuestion::kCompareWithCurrent, dropped_files.front(), status_.title);
  } else {
    OpenFile(dropped_files.front());
  }
}

void ViewerSession::AnswerDrop(ui::DropChoice choice) {
  const std::string path = drop_.path;
  drop_.question = ui::DropQuestion::kNone;
  switch (choice) {
    case ui::DropChoice::kCompare: CompareWithCurrent(path); break;
    case ui::DropChoice::kOpenInstead: OpenFile(path); break;
    case ui::DropChoice::kReplaceA: ReplaceSide(0, path); break;
    case ui::DropChoice::kReplaceB: ReplaceSide(1, path); break;
    case ui::DropChoice::kNone:
    case ui::DropChoice::kCancel: break;
  }
}

}  // namespace stepline::app
