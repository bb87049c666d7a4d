// ViewerSession: the viewer's state machine, shared by the interactive window
// and the headless screenshot command: which trace (or pair of traces) is
// shown, the load jobs, recent files, the file browser, dropped files, and
// one UI frame at a time.
//
// Modes: one trace in MainView, or two runs in CompareView. A comparison is
// assembled in `pending_` side by side: a side is either already in memory
// (the trace on screen, the side that is not replaced) or being loaded by its
// job; when both sides are there the compare view shows them. jobs_[0] loads
// a single trace or side A, jobs_[1] side B, so both sides load at once.
//
// A load hands over the timeline alone (TimelineData::analysis_ready false,
// no flow index yet): a single trace shows at once and, from the next frame
// on, an AnalysisJob indexes its flows (they appear when ready) and computes
// its analysis; when
// it is done, the data with its analysis replaces the timeline-only data
// wherever the session holds it (the view, a side being assembled). A
// comparison shows only once both sides are analysed. An analysis whose data
// the session no longer holds (another file opened) is cancelled.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/file_browser.h"
#include "app/gui/file_watch.h"
#include "app/gui/analysis_job.h"
#include "app/gui/efficiency_store.h"
#include "app/gui/load_job.h"
#include "app/gui/note_keeper.h"
#include "app/gui/recent_files.h"
#include "app/gui/run_picker.h"
#include "app/gui/rank_detail_cache.h"
#include "app/runs/rank_set.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/drop_prompt.h"
#include "ui/main_view.h"
#include "loaders/memory_estimate.h"
#include "ui/load_memory_prompt.h"
#include "ui/reload_notice.h"
#include "ui/ranks/ranks_view.h"
#include "ui/ranks/ranks_window.h"
#include "ui/view_state.h"

namespace stepline::app {

class ViewerSession {
 public:
  explicit ViewerSession(RecentFiles recent) : recent_(std::move(recent)) {}

  void OpenFile(const std::string& path);  // in the background; shown alone
  // Loads the trace and a PyTorch memory snapshot of the same run, its rows
  // added to the trace's timeline (app/runs/snapshot_pair.h).
  void OpenWithSnapshot(const std::string& trace_path, const std::string& snapshot_path);
  const std::string& shown_snapshot() const { return shown_snapshot_; }  // "" when none is shown
  void OpenDemo(const std::string& scenario);
  // Loads two files in the background and compares them (A = baseline).
  void OpenCompare(const std::string& path_a, const std::string& path_b);
  // Loads `path` and compares the trace on screen (as A) with it (as B).
  void CompareWithCurrent(const std::string& path);
  // Loads `path` into side `side` (0 = A, 1 = B) of the comparison on screen.
  void ReplaceSide(int side, const std::string& path);
  void SwapSides();     // exchanges A and B of the comparison on screen
  void CloseCompare();  // back to the single-trace view, showing A
  // Shows an already loaded trace (headless use).
  void Show(std::shared_ptr<const ui::TimelineData> data, const std::string& title);
  // Shows two already loaded runs compared (headless use).
  void ShowCompare(std::shared_ptr<const ui::TimelineData> a, const std::string& title_a,
                   std::shared_ptr<const ui::TimelineData> b, const std::string& title_b);

  // Shows every rank of a distributed run until a trace is shown;
  // a double-clicked rank opens alone.
  void ShowRanks(std::shared_ptr<const RanksRun> run, const std::string& title);
  bool showing_ranks() const { return ranks_ != nullptr; }
  const RanksRun* ranks_run() const { return ranks_.get(); }
  RankDetailCache* rank_details() { return rank_details_.get(); }
  // Loads the rank set of `paths` (app/runs/rank_set.h) on a worker thread, then
  // shows it; a dropped directory holding a run of several ranks comes here.
  // `run_dir`: which run of a TensorBoard tree (the ranks view's run picker); "" the newest.
  void OpenRanks(const std::vector<std::string>& paths, const std::string& title, const std::string& run_dir = "");
  bool loading_ranks() const { return ranks_job_.valid(); }

  bool loading() const { return jobs_[0].running() || jobs_[1].running(); }
  // An analysis of a trace held (shown or being assembled) is running.
  bool analysing() const;
  // Tests: while held, finished analyses wait to be handed over (so a frame
  // before the hand-over is certain); releasing lets the next poll take them.
  void HoldAnalysisResults(bool hold) { hold_analyses_ = hold; }
  // Tests: while held, the jobs of handed-over data do not start (no flow
  // index, the analysis pending), so frames before them are certain.
  void HoldBackgroundJobs(bool hold) { hold_jobs_ = hold; }
  bool comparing() const { return comparing_; }

  // Files dropped on the window: two or more compare the first two; one
  // opens alone, or asks first when something is already shown.
  void HandleDrops(const std::vector<std::string>& dropped_files);
  // The question a single drop is waiting on (kNone when none).
  ui::DropQuestion drop_question() const { return drop_.question; }
  void AnswerDrop(ui::DropChoice choice);
  // Takes finished loads and shows what they complete. Frame() calls it;
  // public so tests can drive the state machine without a window.
  void PollLoads();

  // Wall times of the last single load: the load, the timeline's indices and
  // the analysis (0 until known); for STEPLINE_TIMING.
  struct LoadTimes {
    double load_seconds = 0, index_seconds = 0, analysis_seconds = 0;
  };
  const LoadTimes& load_times() const { return load_times_; }

  // What the file browser's pick is for.
  enum class Pick : uint8_t { kOpen = 0, kCompareWith, kReplaceA, kReplaceB, kImportNotes, kMemorySnapshot };
  // Opens the file browser for `pick` (its title says what for), in
  // `start_dir`, else in the folder of the newest recent file.
  void BrowseFor(Pick pick, const std::string& start_dir = "");
  Pick browsing_for() const { return browser_pick_; }
  const FileBrowser& browser() const { return browser_; }
  // File > Open folder: the runs of the log directory opened last (or near the recent files).
  void BrowseFolder();
  const RunPicker& run_picker() const { return run_picker_; }
  // A file picked in the browser: opened, compared with, or loaded into a side.
  void HandlePick(const std::string& path);
  // What the single-trace view asked for (Frame() calls it; public for tests).
  void ApplyViewRequests(const ui::ViewRequests& req);

  struct FrameResult {
    bool quit = false;
    bool save_screenshot = false;
    std::optional<ui::PanelShot> save_panel;  // a panel's "Save as PNG"
    std::vector<ui::ExportRequest> exports;   // tables (CSV) and charts (SVG) to write
  };
  // Between ImGui::NewFrame() and ImGui::Render().
  FrameResult Frame(const std::vector<std::string>& dropped_files, ui::QuadRenderer* renderer);
  void SetNotice(std::string notice) { status_.notice = std::move(notice); }
  // The notes of the trace on screen: where they are kept (tests, headless).
  NoteKeeper& notes() { return notes_; }
  // The notes of the compared runs' sides (0 = A, 1 = B), each its trace's own.
  NoteKeeper& compare_notes(int side) { return compare_notes_[side]; }
  // Adds the notes of a file to the trace on screen; false with the error.
  bool ImportNotes(const std::string& path, std::string* message);
  // The next frame becomes a picture (no toast over it).
  void SetCapturing(bool capturing) { status_.capturing = capturing; }

  ui::ViewState& state() { return state_; }
  const ui::ViewState& state() const { return state_; }
  const ui::MainView& view() const { return view_; }
  // The comparison on screen (or last shown); SelectStep() picks the step pair.
  ui::CompareView& compare_view() { return compare_; }
  // Where the view on screen drew its caption strip last frame (none when off).
  const std::optional<ui::PanelShot>& caption_strip() const {
    return comparing_ ? compare_.caption_strip() : view_.caption_strip();
  }
  // "run.json.gz — Stepline", "a.json vs b.json — Stepline", or "Stepline".
  std::string WindowTitle() const;
  const std::string& error() const { return status_.error; }
  const std::string& notice() const { return status_.notice; }

  // Files on screen that changed on disk since they were loaded (polled
  // once a second by PollLoads), until Reload() or DismissReload().
  const std::vector<FileWatch::Change>& reload_offer() const { return reload_offer_; }
  // Loads the changed files again: the trace alone, the changed sides of a
  // comparison, or the ranks. What is shown stays until the new load is in.
  void Reload();
  void DismissReload();
  // A load whose estimate exceeds the memory available waits for an answer
  // (the window's Load anyway / Cancel modal): the question's text, "" none.
  const std::string& memory_question() const { return memory_prompt_.warning; }
  void AnswerMemoryQuestion(bool load_anyway);
  // Tests: the budget loads are held against (default loaders::AvailableMemory).
  void SetMemoryBudget(std::function<loaders::MemoryBudget()> budget) { memory_budget_ = std::move(budget); }

  // The peak and batch size each trace is analysed with (viewer_session_efficiency.cpp):
  // what the Efficiency settings applied to its file in this session, else
  // `command_line` for the files named on the command line (`paths`), else
  // what `store` keeps for the file, else none.
  void SetEfficiencySources(EfficiencyStore store, analysis::EfficiencyOptions command_line = {},
                            std::vector<std::string> paths = {});
  analysis::EfficiencyOptions EfficiencyFor(const std::string& path) const;
  // The Efficiency settings' Apply: the trace on screen analysed again with
  // `options` (its timeline stays; the panels wait for the new analysis),
  // which are kept for its file.
  void Reanalyse(const analysis::EfficiencyOptions& options);
  const std::string& shown_path() const { return shown_path_; }  // the file on screen alone; "" the demo

  // Tests: how often the files are stat()ed (default once a second).
  void SetWatchInterval(FileWatch::Clock::duration interval) { watch_ = FileWatch(interval); }

 private:
  // Where a comparison being assembled stands, per side.
  struct PendingSide {
    std::shared_ptr<const ui::TimelineData> data;  // set once the side is in memory
    std::string title;
    bool loading = false;
    std::string path;  // its file ("" the demo)
  };
  bool ChooseTraceIn(std::string* path);
  // `ask`: false when the question was asked for both sides at once (OpenCompare).
  void StartSide(int side, const std::string& path, bool ask = true);
  void StartCompare(const std::string& path_a, const std::string& path_b);  // OpenCompare without the question
  void StartRanks(const std::vector<std::string>& paths, const std::string& title, const std::string& run_dir);
  void Abandon(int job);  // cancels the job and drops its result (unlike a user's Cancel, no error shown)
  void TakeOutcome(int job);
  // Analyses `data` with the efficiency options of `path` (EfficiencyFor).
  void StartAnalysis(const std::shared_ptr<const ui::TimelineData>& data, const std::string& path);
  // Joins finished analyses to their data; cancels those of data no longer held.
  void PollAnalyses();
  bool Holds(const std::shared_ptr<const ui::TimelineData>& data) const;
  void TryShowCompare();  // shows the comparison once both sides are in memory and analysed
  void ApplyCompareRequests(const ui::CompareRequests& req);
  void FillStatus();
  void PollFileChanges();  // the watched files' changes join reload_offer_
  // True when `path` looks larger than the memory available: the load of
  // `side` (-1 alone, 0 / 1 a comparison's side) waits for the question's answer.
  bool AskBeforeLoading(const std::string& path, int side);
  // The same for both sides of a comparison loaded at once (their sum) and
  // for a rank set (what its load holds at once, app/runs/rank_set_memory.h).
  bool AskBeforeComparing(const std::string& path_a, const std::string& path_b);
  bool AskBeforeRanks(const std::vector<std::string>& paths, const std::string& title, const std::string& run_dir);
  void WatchShown();       // forgets the files watched and the offer; watches the ranks on screen
  void WatchData(const std::string& label, const std::shared_ptr<const ui::TimelineData>& data);
  // viewer_session_snapshot.cpp: after job 0's trace is shown, the snapshot
  // read with it (if any) is watched and its notice said; Reload reads the
  // pair again when either file changed (true when it did).
  static constexpr const char* kSnapshotWatchLabel = "memory snapshot";
  void ShowSnapshotOutcome();
  bool ReloadWithSnapshot(const FileWatch::Change& change);
  ui::CompareStatus MakeCompareStatus() const;

  LoadJob jobs_[2];
  std::string shown_path_;       // the file shown alone
  std::string compare_paths_[2];  // the files of the comparison on screen
  EfficiencyStore efficiency_store_;
  analysis::EfficiencyOptions command_line_efficiency_;
  std::vector<std::string> command_line_paths_;
  std::map<std::string, analysis::EfficiencyOptions> applied_efficiency_;  // by file, this session
  std::vector<std::unique_ptr<AnalysisJob>> analyses_;  // of data the session holds
  std::vector<std::unique_ptr<AnalysisJob>> retired_;   // cancelled or taken, freed once their threads end
  LoadTimes load_times_;
  bool hold_analyses_ = false;
  bool hold_jobs_ = false;
  std::string job_path_[2];  // file each job reads, for the recent list ("" = demo)
  // A trace opened with a memory snapshot (OpenWithSnapshot): the snapshot
  // job 0 reads with it and what the load wants the user to know; then the
  // snapshot shown with the trace, watched and read again on Reload.
  std::string job_snapshot_;
  std::shared_ptr<std::string> job_notice_;
  std::string shown_snapshot_;
  bool job_wanted_[2] = {};  // the job's result is still awaited
  bool job_single_ = false;  // jobs_[0] loads a trace to show alone
  bool assembling_ = false;  // pending_ collects the sides of a comparison
  PendingSide pending_[2];
  bool comparing_ = false;  // the compare view is on screen
  ui::ViewState state_;
  ui::MainView view_;
  ui::CompareView compare_;
  ui::AppStatus status_;
  ui::DropPrompt drop_;
  RecentFiles recent_;
  FileBrowser browser_;
  RunPicker run_picker_;
  std::string last_log_dir_;  // the log directory opened last; where Open folder starts
  Pick browser_pick_ = Pick::kOpen;
  std::shared_ptr<const RanksRun> ranks_;  // the ranks view is on screen while set
  std::unique_ptr<RankDetailCache> rank_details_;  // the zoomed-in ranks' slices; goes with ranks_
  std::string ranks_title_;
  ui::RanksView ranks_view_;
  ui::RanksWindow ranks_window_;  // its menu bar, keys and help
  struct RanksOutcome {
    std::shared_ptr<const RanksRun> run;
    std::string error;
  };
  void ReloadRanks(const std::vector<std::string>& changed);  // those rank files again, the others kept
  static std::future<RanksOutcome> StartRanksJob(const std::vector<std::string>& paths, const std::string& run_dir);
  std::future<RanksOutcome> ranks_job_;
  std::string ranks_job_title_;
  std::vector<std::string> ranks_job_paths_;  // what OpenRanks was given, for Reload
  std::vector<std::string> ranks_paths_;      // of the ranks view on screen
  FileWatch watch_;
  NoteKeeper notes_;
  NoteKeeper compare_notes_[2];
  std::vector<FileWatch::Change> reload_offer_;
  struct MemoryQuestion {
    std::string path, warning;
    int side = -1;  // -1 OpenFile, else StartSide's side
    // Asked for a whole: both sides of OpenCompare (path and other), or the
    // rank set of OpenRanks (paths, title, run_dir).
    enum class Whole : uint8_t { kNo = 0, kPair, kRanks } whole = Whole::kNo;
    std::string other, title, run_dir;
    std::vector<std::string> paths;
  };
  void AskMemory(MemoryQuestion question);  // queued; the front one is on screen
  std::vector<MemoryQuestion> memory_questions_;  // the front one is asked
  std::string memory_confirmed_;                  // answered Load anyway: loads without asking again
  ui::LoadMemoryPrompt memory_prompt_;
  std::function<loaders::MemoryBudget()> memory_budget_ = [] { return loaders::AvailableMemory(); };
};

}  // namespace stepline::app
