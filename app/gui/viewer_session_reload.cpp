// ViewerSession: watching the files on screen and reloading them when they
// change on disk (see file_watch.h and the Reload() comment in
// viewer_session.h), the question before a load that may not fit in memory,
// and importing notes. In a file of its own so viewer_session.cpp stays short.
#include "app/gui/viewer_session.h"

#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <string>

#include "app/runs/profile_runs.h"
#include "loaders/memory_estimate.h"

namespace stepline::app {

void ViewerSession::WatchShown() {
  watch_.Clear();
  reload_offer_.clear();
  status_.reload_offer.clear();
  if (!ranks_) return;
  for (size_t i = 0; i < ranks_->ranks.size(); ++i) {
    const analysis::RankSummary& r = ranks_->ranks[i];
    watch_.Watch("rank " + std::to_string(r.rank >= 0 ? r.rank : static_cast<int32_t>(i)), r.path);
  }
}

void ViewerSession::WatchData(const std::string& label, const std::shared_ptr<const ui::TimelineData>& data) {
  if (!data || !data->trace) return;
  const TraceInfo& info = data->trace->info();
  watch_.Watch(label, info.source_path, info.file_bytes > 0 ? info.file_bytes : UINT64_MAX);
}

void ViewerSession::PollFileChanges() {
  std::vector<FileWatch::Change> changes = watch_.Poll(FileWatch::Clock::now());
  if (changes.empty()) return;
  for (FileWatch::Change& c : changes) {
    std::erase_if(reload_offer_, [&](const FileWatch::Change& o) { return o.label == c.label; });
    reload_offer_.push_back(std::move(c));
  }
  status_.reload_offer = ChangeNotice(reload_offer_);
}

void ViewerSession::Reload() {
  const std::vector<FileWatch::Change> offer = std::move(reload_offer_);
  DismissReload();
  if (offer.empty()) return;
  if (ranks_) {
    // Changed rank files reload alone, the others' summaries kept; a removed
    // one reloads the set whole (the rest of the run may have moved too).
    std::vector<std::string> changed;
    bool removed = false;
    for (const FileWatch::Change& c : offer) {
      changed.push_back(c.path);
      removed = removed || c.removed;
    }
    if (!removed && !changed.empty()) {
      ReloadRanks(changed);
      return;
    }
    std::vector<std::string> paths = ranks_paths_;
    if (paths.empty()) {
      for (const analysis::RankSummary& r : ranks_->ranks) paths.push_back(r.path);
    }
    OpenRanks(paths, ranks_title_);
    return;
  }
  if (comparing_) {
    for (const FileWatch::Change& c : offer) {
      if (c.label == "A" || c.label == "B") ReplaceSide(c.label == "A" ? 0 : 1, c.path);
    }
    return;
  }
  for (const FileWatch::Change& c : offer) {
    // A trace shown with a memory snapshot is read again with it, whichever changed.
    if (ReloadWithSnapshot(c)) return;
  }
  for (const FileWatch::Change& c : offer) {
    if (c.label.empty()) OpenFile(c.path);
  }
}

bool ViewerSession::AskBeforeLoading(const std::string& path, int side) {
  // Asked before the load starts, while the window still shows what it had.
  // Load anyway runs it (the estimate can be wrong, and running out fails
  // that load alone, with a message).
  if (!memory_confirmed_.empty() && path == memory_confirmed_) {
    memory_confirmed_.clear();
    return false;
  }
  std::string warning = loaders::MemoryWarning(path, loaders::EstimateLoadMemory(path), memory_budget_());
  if (warning.empty()) return false;
  MemoryQuestion q;
  q.path = path;
  q.warning = std::move(warning);
  q.side = side;
  AskMemory(std::move(q));
  return true;
}

bool ViewerSession::AskBeforeComparing(const std::string& path_a, const std::string& path_b) {
  // A log directory stands for its newest run's trace, as StartSide takes it;
  // one that holds none is reported by StartSide.
  auto a = ChooseTrace(path_a);
  auto b = ChooseTrace(path_b);
  if (!a || !b) return false;
  const loaders::MemoryEstimate sum =
      loaders::AddEstimates({loaders::EstimateLoadMemory(a->path), loaders::EstimateLoadMemory(b->path)});
  std::string warning =
      loaders::MemoryWarning(a->path + " and " + b->path, "the two traces loaded at once need", sum, memory_budget_());
  if (warning.empty()) return false;
  MemoryQuestion q;
  q.path = path_a;
  q.warning = std::move(warning);
  q.whole = MemoryQuestion::Whole::kPair;
  q.other = path_b;
  AskMemory(std::move(q));
  return true;
}

void ViewerSession::AskMemory(MemoryQuestion question) {
  memory_questions_.push_back(std::move(question));
  if (memory_questions_.size() == 1) memory_prompt_.Ask(memory_questions_.front().warning);
}

void ViewerSession::AnswerMemoryQuestion(bool load_anyway) {
  if (memory_questions_.empty()) return;
  const MemoryQuestion q = memory_questions_.front();
  memory_questions_.erase(memory_questions_.begin());
  memory_prompt_.warning.clear();
  if (q.whole == MemoryQuestion::Whole::kPair) {
    if (load_anyway) {
      StartCompare(q.path, q.other);
    } else {
      status_.notice = "Not compared: " + std::filesystem::path(q.path).filename().string() + " and " +
                       std::filesystem::path(q.other).filename().string() + " were not loaded";
    }
  } else if (q.whole == MemoryQuestion::Whole::kRanks) {
    if (load_anyway) {
      StartRanks(q.paths, q.title, q.run_dir);
    } else {
      status_.notice = "Not loaded: the ranks of " + q.title;
    }
  } else if (load_anyway) {
    memory_confirmed_ = q.path;
    if (q.side < 0) {
      OpenFile(q.path);
    } else if (assembling_) {
      StartSide(q.side, q.path);
    }
  } else if (q.side >= 0 && assembling_) {
    // Without this side the comparison cannot complete.
    Abandon(1 - q.side);
    assembling_ = false;
    pending_[0] = pending_[1] = PendingSide{};
    std::erase_if(memory_questions_, [](const MemoryQuestion& m) { return m.side >= 0; });
    status_.notice = "Not compared: " + std::filesystem::path(q.path).filename().string() + " was not loaded";
  } else {
    status_.notice = "Not loaded: " + std::filesystem::path(q.path).filename().string();
  }
  if (!memory_questions_.empty()) memory_prompt_.Ask(memory_questions_.front().warning);
}

void ViewerSession::ReloadRanks(const std::vector<std::string>& changed) {
  ranks_job_title_ = ranks_title_;
  ranks_job_paths_ = ranks_paths_;
  status_.notice = "Reloading " + std::to_string(changed.size()) + (changed.size() == 1 ? " rank" : " ranks") + "...";
  try {
    ranks_job_ = std::async(std::launch::async, [shown = ranks_, changed] {
      RanksOutcome out;
      try {
        std::shared_ptr<const RanksRun> run = shown;
        for (const std::string& path : changed) {
          auto next = std::make_shared<RanksRun>();
          out.error = ReloadRank(*run, path, 1, next.get());
          if (!out.error.empty()) return out;
          run = std::move(next);
        }
        out.run = std::move(run);
      } catch (const std::exception& e) {  // std::bad_alloc, or a thread that did not start
        out.error = e.what();
      }
      return out;
    });
  } catch (const std::exception&) {
    status_.error = ranks_title_ + ": " + loaders::OutOfMemoryMessage("reloading the ranks", loaders::MemoryEstimate{});
  }
}

void ViewerSession::DismissReload() {
  reload_offer_.clear();
  status_.reload_offer.clear();
}

bool ViewerSession::ImportNotes(const std::string& path, std::string* message) {
  const NoteKeeper::Outcome outcome = notes_.Import(&state_, path);
  *message = outcome.message;
  return outcome.ok;
}

}  // namespace stepline::app
