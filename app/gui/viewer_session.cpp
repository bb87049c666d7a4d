// ViewerSession: load hand-off, requests from the views, dropped files, and
// the assembly of comparisons; see viewer_session.h.
//
// [SECTION] Opening: single traces, comparisons, replace / swap / close
// [SECTION] Loads: finished jobs complete a single view or a comparison
// (rank sets and dropped files: viewer_session_ranks.cpp)
// [SECTION] Frame
#include "app/gui/viewer_session.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <new>
#include <sstream>
#include <system_error>
#include <thread>

#include "app/runs/cached_trace_load.h"
#include "app/runs/profile_runs.h"
#include "app/runs/rank_set.h"
#include "demo/demo_generator.h"
#include "loaders/memory_estimate.h"
#include "ui/input/test_events.h"
#include "ui/input/window_keys.h"

namespace stepline::app {
namespace {

std::string FileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Opening
//-----------------------------------------------------------------------------

void ViewerSession::Abandon(int job) {
  job_wanted_[job] = false;
  jobs_[job].Cancel();
}

// A log directory stands for the trace of its newest run (profile_runs.h);
// the notice says which file that is. False, with the error shown, when the
// directory holds no run.
bool ViewerSession::ChooseTraceIn(std::string* path) {
  auto chosen = ChooseTrace(*path);
  if (!chosen) {
    status_.error = chosen.error();
    return false;
  }
  if (!chosen->note.empty()) {
    status_.notice = chosen->note;
    last_log_dir_ = *path;
  }
  *path = chosen->path;
  return true;
}

void ViewerSession::OpenFile(const std::string& given) {
  // A folder holding a run of several ranks (or hosts): all of them side by
  // side, as a dropped folder opens; the ranks view opens one rank alone.
  std::error_code ec;
  if (std::filesystem::is_directory(given, ec)) {
    auto runs = FindProfileRuns(given);
    if (runs && runs->front().traces.size() >= 2) {
      OpenRanks({given}, given);
      return;
    }
  }
  std::string path = given;
  if (!ChooseTraceIn(&path)) return;
  if (AskBeforeLoading(path, -1)) return;  // what is shown stays until the answer
  // A single open supersedes a comparison being assembled.
  Abandon(1);
  assembling_ = false;
  pending_[0] = pending_[1] = PendingSide{};
  job_single_ = true;
  job_wanted_[0] = true;
  job_path_[0] = path;
  job_snapshot_.clear();
  job_notice_.reset();
  status_.error.clear();
  jobs_[0].Start(path);
}

void ViewerSession::OpenDemo(const std::string& scenario) {
  Abandon(1);
  assembling_ = false;
  pending_[0] = pending_[1] = PendingSide{};
  job_single_ = true;
  job_wanted_[0] = true;
  job_path_[0].clear();
  job_snapshot_.clear();
  job_notice_.reset();
  status_.error.clear();
  jobs_[0].StartWith("demo: " + scenario, [scenario] {
    demo::DemoOptions options;
    options.scenario = scenario;
    return demo::GenerateDemoTrace(options);
  });
}

void ViewerSession::StartSide(int side, const std::string& given, bool ask) {
  std::string path = given;
  if (!ChooseTraceIn(&path)) {
    // The comparison cannot complete: stop the other side too.
    Abandon(1 - side);
    assembling_ = false;
    pending_[0] = pending_[1] = PendingSide{};
    return;
  }
  if (side == 0) job_single_ = false;
  pending_[side] = PendingSide{nullptr, FileName(path), true, path};
  if (ask && AskBeforeLoading(path, side)) return;  // the side waits for the answer
  job_path_[side] = path;
  job_wanted_[side] = true;
  jobs_[side].Start(path);
}

void ViewerSession::OpenCompare(const std::string& path_a, const std::string& path_b) {
  // Both sides load at once: asked once, for their sum; what is shown stays until the answer.
  if (AskBeforeComparing(path_a, path_b)) return;
  StartCompare(path_a, path_b);
}

void ViewerSession::StartCompare(const std::string& path_a, const std::string& path_b) {
  status_.error.clear();
  assembling_ = true;
  StartSide(0, path_a, false);
  StartSide(1, path_b, false);
}

void ViewerSession::CompareWithCurrent(const std::string& path) {
  if (!state_.data) {
    OpenFile(path);
    return;
  }
  status_.error.clear();
  Abandon(0);  // a single load in flight would replace A under our feet
  assembling_ = true;
  pending_[0] = PendingSide{state_.data, status_.title, false, shown_path_};
  StartSide(1, path);
}

void ViewerSession::ReplaceSide(int side, const std::string& path) {
  if (!comparing_ || (side != 0 && side != 1)) return;
  status_.error.clear();
  if (!assembling_) {
    // The side that stays is the one on screen.
    for (int s = 0; s < 2; ++s) {
      pending_[s] = PendingSide{compare_.state(s).data, compare_.title(s), false, compare_paths_[s]};
    }
  }
  assembling_ = true;
  StartSide(side, path);
}

void ViewerSession::SwapSides() {
  // Not while a side is being replaced: it would land on the other letter.
  if (!comparing_ || assembling_) return;
  const int step_a = compare_.timelines().step(0), step_b = compare_.timelines().step(1);
  ShowCompare(compare_.state(1).data, compare_.title(1), compare_.state(0).data, compare_.title(0));
  std::swap(compare_paths_[0], compare_paths_[1]);
  compare_.SelectSteps(step_b, step_a);  // the same two steps stay face to face
}

void ViewerSession::CloseCompare() {
  if (!comparing_) return;
  for (int j = 0; j < 2; ++j) {
    if (!job_single_ || j == 1) Abandon(j);
  }
  assembling_ = false;
  pending_[0] = pending_[1] = PendingSide{};
  const std::string title = compare_.title(0);
  Show(compare_.state(0).data, title);
  shown_path_ = compare_paths_[0];
}

void ViewerSession::Show(std::shared_ptr<const ui::TimelineData> data, const std::string& title) {
  comparing_ = false;
  ranks_.reset();
  rank_details_.reset();
  ui::ViewState fresh;
  fresh.KeepPreferencesOf(state_);  // the layout and options outlive the trace
  state_ = std::move(fresh);
  state_.data = std::move(data);
  state_.FitAll();
  status_.title = title;
  shown_path_.clear();  // a file's load sets it after
  shown_snapshot_.clear();
  WatchShown();
  WatchData("", state_.data);
  ui::TestEvent("trace.shown", "title=" + title);
}

void ViewerSession::ShowCompare(std::shared_ptr<const ui::TimelineData> a, const std::string& title_a,
                                std::shared_ptr<const ui::TimelineData> b, const std::string& title_b) {
  ranks_.reset();
  rank_details_.reset();
  WatchShown();
  WatchData("A", a);
  WatchData("B", b);
  compare_.SetRuns(std::move(a), title_a, std::move(b), title_b);
  comparing_ = true;
  ui::TestEvent("compare.shown", "a=" + title_a + " b=" + title_b);
}

void ViewerSession::ShowRanks(std::shared_ptr<const RanksRun> run, const std::string& title) {
  ranks_ = std::move(run);
  ranks_title_ = title;
  // Ranks read from a report (no summary lanes) have no trace to load.
  std::vector<std::string> paths;
  for (const analysis::RankSummary& r : ranks_->ranks) paths.push_back(r.lanes.empty() ? std::string() : r.path);
  rank_details_ = std::make_unique<RankDetailCache>(std::move(paths), RankDetailBudget());
  WatchShown();
  ui::TestEvent("ranks.shown", "ranks=" + std::to_string(ranks_->ranks.size()));
}

//-----------------------------------------------------------------------------
// [SECTION] Loads
//-----------------------------------------------------------------------------

void ViewerSession::TakeOutcome(int job) {
  std::optional<LoadJob::Outcome> out = jobs_[job].TakeOutcome();
  if (!out || !job_wanted_[job]) return;
  job_wanted_[job] = false;
  const bool single = job == 0 && job_single_;
  if (!out->data) {
    // What is on screen stays; the error is shown above it, never a crash.
    const std::string side = single ? "" : (job == 0 ? "A: " : "B: ");
    status_.error = side + out->error;
    if (!single && assembling_) {
      // One side failed: the comparison cannot complete; stop the other side.
      Abandon(1 - job);
      assembling_ = false;
      pending_[0] = pending_[1] = PendingSide{};
    }
    return;
  }
  // A file that lost data while loading (cut, corrupt) is not offered again
  // as if it were good: the banner explains it now, Open recent would not.
  if (!job_path_[job].empty() && !out->data->trace->diagnostics().has_data_loss()) recent_.Add(job_path_[job]);
  if (single) {
    load_times_ = LoadTimes{out->load_seconds, out->index_seconds, 0};
    StartAnalysis(out->data, job_path_[job]);
    Show(std::move(out->data), FileName(out->path));
    shown_path_ = job_path_[job];
    ShowSnapshotOutcome();
    return;
  }
  if (!assembling_) return;  // a side of a comparison that was abandoned
  StartAnalysis(out->data, job_path_[job]);
  pending_[job].data = std::move(out->data);
  pending_[job].loading = false;
  TryShowCompare();
}

void ViewerSession::TryShowCompare() {
  const auto ready = [](const PendingSide& p) { return p.data && !p.loading && p.data->analysis_ready; };
  if (assembling_ && ready(pending_[0]) && ready(pending_[1])) {
    assembling_ = false;
    ShowCompare(pending_[0].data, pending_[0].title, pending_[1].data, pending_[1].title);
    for (int s = 0; s < 2; ++s) compare_paths_[s] = pending_[s].path;
    pending_[0] = pending_[1] = PendingSide{};
  }
}

void ViewerSession::StartAnalysis(const std::shared_ptr<const ui::TimelineData>& data, const std::string& path) {
  if (data && !data->analysis_ready) analyses_.push_back(std::make_unique<AnalysisJob>(data, EfficiencyFor(path)));
}

bool ViewerSession::Holds(const std::shared_ptr<const ui::TimelineData>& data) const {
  return state_.data == data || (assembling_ && (pending_[0].data == data || pending_[1].data == data));
}

bool ViewerSession::analysing() const {
  return std::any_of(analyses_.begin(), analyses_.end(), [&](const auto& a) { return Holds(a->pending()); });
}

void ViewerSession::PollAnalyses() {
  for (size_t i = 0; i < analyses_.size();) {
    AnalysisJob& job = *analyses_[i];
    if (!Holds(job.pending())) {
      // Replaced or closed before its analysis was done: stop it without
      // waiting here; its thread ends at its next stage.
      job.Cancel();
      retired_.push_back(std::move(analyses_[i]));
      analyses_.erase(analyses_.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    if (!job.done() || hold_analyses_) {
      ++i;
      continue;
    }
    const std::shared_ptr<const ui::TimelineData> pending = job.pending();
    std::shared_ptr<const ui::TimelineData> done = job.Take();
    if (const std::string error = job.error(); !error.empty()) {
      // Out of memory: what is open stays, without what could not be built.
      const bool side = assembling_ && (pending_[0].data == pending || pending_[1].data == pending);
      if (side) {
        status_.error = "compare: " + error;
        assembling_ = false;
        pending_[0] = pending_[1] = PendingSide{};
      } else {
        status_.notice = error + " (the timeline stays open without it)";
      }
    }
    if (done) {
      // The same trace, now with its analysis: the view keeps its zoom,
      // scroll and selection; panels rebuild their caches (new generation).
      if (state_.data == pending) {
        state_.data = done;
        load_times_.analysis_seconds = job.seconds();
        ui::TestEvent("analysis.ready");
      }
      for (PendingSide& side : pending_) {
        if (side.data == pending) side.data = done;
      }
    }
    // The flow index may still be building (a tiny share of the time): its
    // thread is joined once it ends, not waited for here.
    if (!job.finished()) retired_.push_back(std::move(analyses_[i]));
    analyses_.erase(analyses_.begin() + static_cast<std::ptrdiff_t>(i));
    TryShowCompare();
  }
  std::erase_if(retired_, [](const auto& job) { return job->finished(); });
}

void ViewerSession::PollLoads() {
  // Jobs of data handed over by an earlier poll start now: the frame that
  // first showed the data is drawn, and did not share the cores with them.
  if (!hold_jobs_) {
    for (auto& job : analyses_) {
      if (Holds(job->pending())) job->Start();  // the others are cancelled below, never started
    }
  }
  for (int j = 0; j < 2; ++j) TakeOutcome(j);
  PollAnalyses();
  if (ranks_job_.valid() && ranks_job_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    RanksOutcome outcome = ranks_job_.get();
    if (outcome.error.empty()) {
      const std::vector<RankFailure>& failed = outcome.run->failed;
      status_.notice = failed.empty() ? std::string()
                                      : std::to_string(failed.size()) + " rank file(s) failed to load; first: " +
                                            failed.front().path + ": " + failed.front().error;
      ranks_paths_ = ranks_job_paths_;
      ShowRanks(std::move(outcome.run), ranks_job_title_);
    } else {
      status_.error = ranks_job_title_ + ": " + outcome.error;
    }
  }
  PollFileChanges();
}

//-----------------------------------------------------------------------------
// [SECTION] Frame
//-----------------------------------------------------------------------------

void ViewerSession::FillStatus() {
  const bool any = loading();
  status_.loading = any;
  status_.progress = -1;
  status_.loading_name.clear();
  status_.waiting = false;
  if (!any) return;
  // The single view has one progress bar: name both files and average them.
  double sum = 0;
  int known = 0;
  for (int j = 0; j < 2; ++j) {
    if (!jobs_[j].running()) continue;
    if (!status_.loading_name.empty()) status_.loading_name += " and ";
    status_.loading_name += jobs_[j].name();
    status_.waiting = status_.waiting || jobs_[j].waiting();
    if (const uint64_t read = jobs_[j].pipe_bytes_read(); read > 0) {
      status_.loading_name += " (" + std::to_string((read + (1u << 19)) >> 20) + " MB read)";
    }
    if (jobs_[j].progress() >= 0) {
      sum += jobs_[j].progress();
      ++known;
    }
  }
  if (assembling_ && !comparing_) status_.loading_name += " to compare";
  if (known > 0) status_.progress = sum / known;
}

std::string ViewerSession::WindowTitle() const {
  constexpr const char* kApp = "Stepline";
  if (ranks_) return ranks_title_ + " (ranks) \u2014 " + kApp;
  if (comparing_) return compare_.title(0) + " vs " + compare_.title(1) + " \u2014 " + kApp;
  if (state_.data && !status_.title.empty()) return status_.title + " \u2014 " + kApp;
  return kApp;
}

ui::CompareStatus ViewerSession::MakeCompareStatus() const {
  ui::CompareStatus cs;
  for (int j = 0; j < 2; ++j) {
    cs.load[j].loading = jobs_[j].running();
    cs.load[j].progress = jobs_[j].progress();
    cs.load[j].name = jobs_[j].name();
  }
  cs.error = status_.error;
  cs.notice = status_.notice;
  cs.capturing = status_.capturing;
  cs.recent = recent_.list();
  cs.show_caption = state_.pictures.show_caption;  // preferences live in the single view's state
  cs.export_folder = state_.pictures.export_folder;
  cs.reload_offer = status_.reload_offer;
  cs.modal_open = status_.modal_open;
  return cs;
}

void ViewerSession::BrowseFor(Pick pick, const std::string& start_dir) {
  static constexpr const char* kTitles[] = {"Open trace", "Compare with", "Replace A", "Replace B", "Import notes",
                                               "Open memory snapshot"};
  browser_pick_ = pick;
  // The folders of recent files, newest first and each once, are the
  // dialog's shortcuts; it starts in the newest.
  std::vector<std::string> folders;
  for (const std::string& file : recent_.list()) {
    const std::string folder = std::filesystem::path(file).parent_path().string();
    if (!folder.empty() && std::find(folders.begin(), folders.end(), folder) == folders.end()) folders.push_back(folder);
  }
  const std::string start = !start_dir.empty() ? start_dir : folders.empty() ? std::string() : folders.front();
  browser_.Open(start, kTitles[static_cast<int>(pick)], std::move(folders));
}

void ViewerSession::BrowseFolder() {
  std::string start = last_log_dir_;
  if (start.empty() && !recent_.list().empty()) start = std::filesystem::path(recent_.list().front()).parent_path().string();
  run_picker_.Open(start);
}

void ViewerSession::HandlePick(const std::string& path) {
  switch (browser_pick_) {
    case Pick::kCompareWith: CompareWithCurrent(path); break;
    case Pick::kReplaceA:
    case Pick::kReplaceB:
      // The comparison may have closed while the browser was open.
      if (comparing_) {
        ReplaceSide(browser_pick_ == Pick::kReplaceA ? 0 : 1, path);
      } else {
        OpenFile(path);
      }
      break;
    case Pick::kOpen: OpenFile(path); break;
    case Pick::kMemorySnapshot:
      if (state_.data && !state_.data->trace->info().source_path.empty()) {
        OpenWithSnapshot(state_.data->trace->info().source_path, path);
      } else {
        status_.error = "a memory snapshot opens with a trace loaded from a file";
      }
      break;
    case Pick::kImportNotes: {
      std::string message;
      (ImportNotes(path, &message) ? status_.notice : status_.error) = message;
      break;
    }
  }
}

void ViewerSession::ApplyCompareRequests(const ui::CompareRequests& req) {
  if (req.open_dialog) BrowseFor(Pick::kOpen);
  if (req.replace_dialog == 0 || req.replace_dialog == 1)
    BrowseFor(req.replace_dialog == 0 ? Pick::kReplaceA : Pick::kReplaceB);
  if (req.replace_side >= 0 && !req.replace_path.empty()) ReplaceSide(req.replace_side, req.replace_path);
  if (!req.open_path.empty()) OpenFile(req.open_path);
  if (req.swap) SwapSides();
  if (req.close) CloseCompare();
  if (req.cancel_load) {
    jobs_[0].Cancel();
    jobs_[1].Cancel();
  }
  if (req.dismiss_error) status_.error.clear();
  if (req.reload) Reload();
  if (req.dismiss_reload) DismissReload();
  if (!req.notice.empty()) status_.notice = req.notice;
  if (req.show_caption) state_.pictures.show_caption = *req.show_caption;
  if (req.export_folder) state_.pictures.export_folder = *req.export_folder;
}

void ViewerSession::ApplyViewRequests(const ui::ViewRequests& req) {
  if (req.open_dialog) BrowseFor(Pick::kOpen);
  if (req.compare_dialog && state_.data) BrowseFor(Pick::kCompareWith);
  if (req.memory_snapshot_dialog && state_.data) BrowseFor(Pick::kMemorySnapshot);
  if (req.open_folder_dialog) BrowseFolder();
  if (req.clear_cache) {
    const uint64_t freed = column_cache::ClearCache(CacheSettingsForApp());
    status_.notice = "Cache cleared (" + std::to_string((freed + (1u << 19)) >> 20) + " MB freed)";
  }
  if (!req.open_path.empty()) OpenFile(req.open_path);
  if (!req.notice.empty()) status_.notice = req.notice;
  if (req.efficiency) Reanalyse(*req.efficiency);
  if (req.import_notes && state_.data) BrowseFor(Pick::kImportNotes);
  if (req.export_notes) status_.notice = notes_.Export(state_).message;
  if (req.cancel_load) {
    jobs_[0].Cancel();
    jobs_[1].Cancel();
  }
  if (req.dismiss_error) status_.error.clear();
  if (req.reload) Reload();
  if (req.dismiss_reload) DismissReload();
}

ViewerSession::FrameResult ViewerSession::Frame(const std::vector<std::string>& dropped_files,
                                                ui::QuadRenderer* renderer) {
  FrameResult result;
  HandleDrops(dropped_files);
  PollLoads();
  status_.recent = recent_.list();
  // A dialog up over the view takes the keyboard: no shortcut or search
  // field behind it sees what is typed into it.
  status_.modal_open =
      browser_.is_open() || drop_.question != ui::DropQuestion::kNone || memory_prompt_.open();
  FillStatus();
  if (ranks_) {
    ui::RanksViewInput input;
    input.ranks = ranks_->ranks;
    input.analysis = &ranks_->analysis;
    input.title = ranks_title_;
    input.runs = RanksRunChoices(ranks_->runs, ranks_->run_index);
    input.details = rank_details_.get();
    // A rank file changed on disk: the window offers Reload, which loads that
    // rank again (the single and compare views draw the same offer in their bars).
    ui::RanksRequests req = ranks_window_.Draw(ranks_view_, input, !status_.modal_open, status_.reload_offer);
    if (req.reload == ui::ReloadNoticeChoice::kReload) Reload();
    if (req.reload == ui::ReloadNoticeChoice::kDismiss) DismissReload();
    if (req.open_dialog) BrowseFor(Pick::kOpen);
    if (req.open_folder_dialog) BrowseFolder();
    result.quit = req.quit;
    result.save_screenshot = req.save_screenshot;
    result.save_panel = std::move(req.save_panel);
    if (std::optional<std::string> run_dir = ranks_view_.TakeRunChoice()) {
      OpenRanks({ranks_->runs_root}, ranks_title_, *run_dir);  // the view stays until the run is loaded
    }
    if (req.open_rank) {
      ranks_.reset();  // the single view shows the rank's load progress
      rank_details_.reset();
      OpenFile(*req.open_rank);
    }
  } else if (comparing_) {
    // Each side's notes are its trace's own, kept as when it is shown alone.
    for (int side = 0; side < 2; ++side) compare_notes_[side].Sync(&compare_.state(side), &status_.notice);
    ui::CompareRequests req = compare_.Draw(MakeCompareStatus(), renderer);
    for (int side = 0; side < 2; ++side) compare_notes_[side].Sync(&compare_.state(side), &status_.notice);
    ApplyCompareRequests(req);
    result.quit = req.quit;
    result.save_screenshot = req.save_screenshot;
    result.save_panel = std::move(req.save_panel);
    result.exports = std::move(req.exports);
  } else {
    notes_.Sync(&state_, &status_.notice);  // this trace's saved notes, before they are drawn
    ui::ViewRequests req = view_.Draw(state_, status_, renderer);
    ApplyViewRequests(req);
    notes_.Sync(&state_, &status_.notice);
    result.quit = req.quit;
    result.save_screenshot = req.save_screenshot;
    result.save_panel = std::move(req.save_panel);
    result.exports = std::move(req.exports);
  }
  if (const ui::DropChoice choice = drop_.Draw(); choice != ui::DropChoice::kNone) AnswerDrop(choice);
  if (const ui::LoadMemoryChoice choice = memory_prompt_.Draw(); choice != ui::LoadMemoryChoice::kNone) {
    AnswerMemoryQuestion(choice == ui::LoadMemoryChoice::kLoadAnyway);
  }
  std::string picked;
  if (browser_.Draw(&picked)) HandlePick(picked);
  if (RunPicker::Choice choice; run_picker_.Draw(&choice)) {
    last_log_dir_ = run_picker_.folder();
    if (!choice.ranks_run.empty()) {
      OpenRanks({run_picker_.folder()}, run_picker_.folder(), choice.ranks_run);
    } else {
      OpenFile(choice.path);
    }
  }
  return result;
}

}  // namespace stepline::app
