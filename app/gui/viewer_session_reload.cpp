// ViewerSession: watching the files on screen and reloading them when they
// change on disk (see file_watch.h and the Reload() comment in
// viewer_session.h), the memory warning before a load, and importing notes.
// In a file of its own so viewer_session.cpp stays short.
#include "app/gui/viewer_session.h"

#include <cstdint>
#include <string>

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
    // The ranks load together: their set is reloaded whole.
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
    if (c.label.empty()) OpenFile(c.path);
  }
}

void ViewerSession::WarnIfTooLarge(const std::string& path) {
  // Said before the load starts, while the window still shows what it had;
  // the load runs anyway (the estimate can be wrong, and running out fails
  // that load alone).
  const std::string warning =
      loaders::MemoryWarning(path, loaders::EstimateLoadMemory(path), loaders::AvailableMemory());
  if (!warning.empty()) status_.notice = warning;
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
