// DemoEmitter: the demo generator's output side. It owns the loaders::TraceBuilder,
// creates the processes and tracks of one naming style, appends slices (with
// the style's categories), drops events that start before the profile window
// opens, and records what the ground truth needs. Timing lives in
// demo_generator.cpp; this file knows nothing about scenarios.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "demo/demo_scenarios.h"
#include "loaders/trace_builder.h"

namespace stepline::demo {

// What the idle-cause name table will make of a host event (see the list in
// demo_generator.h), plus which per-step tally it feeds.
enum class HostTag : uint8_t {
  kNone = 0,     // inherits its parent's cause; host_compute at the top
  kStepMarker,   // never counted
  kInput,        // the iterator call; tallied as input wait
  kInputInner,   // nested input event; cause input, not tallied again
  kSync,         // a blocking sync call; tallied
  kSyncWrapper,  // aten::item / _local_scalar_dense: cause sync, not tallied
  kLaunch,       // a kernel launch call; tallied
  kCopyLaunch,   // an async memcpy call; cause launch, not tallied
  kCallback,     // on_train_batch_end: cause host_compute; tallied
  kCheckpoint,   // the checkpoint save: cause host_compute; tallied
};

enum class DemoThread : uint8_t { kMain = 0, kReader, kWorker0 };  // map worker i = kWorker0 + i
enum class DemoStream : uint8_t { kCompute = 0, kH2D, kD2H };
inline constexpr int kDemoMapWorkers = 4;

// Truth records: only events that made it into the trace.
struct HostRecord {  // one main-thread slice
  TimeNs start_ns, end_ns;
  uint16_t depth;
  int8_t cause;  // DemoIdleCause, or -1 for a step marker
  HostTag tag;
};
struct KernelRecord {  // one kernel on the compute stream
  TimeNs start_ns, end_ns;
  TimeNs launch_start_ns;  // its launch call on the main thread (always the launching thread)
};
struct CopyRecord {
  TimeNs start_ns, end_ns;
  GpuKind kind;
};
struct WorkerRecord {  // busy time of one map worker
  TimeNs start_ns, end_ns;
};
struct DemoRecords {
  std::vector<std::vector<HostRecord>> host_by_depth;  // per depth, in time order
  std::vector<KernelRecord> kernels;                   // in time order
  std::vector<CopyRecord> copies;
  std::vector<WorkerRecord> worker_busy;
};

// Kineto categories of the PyTorch style; all 0 in TensorFlow style, whose
// TensorBoard JSON has none.
struct DemoCategories {
  StringId cpu_op, user_annotation, runtime, kernel, memcpy;
};

class DemoEmitter {
 public:
  DemoEmitter(DemoStyle style, bool record_truth);

  DemoStyle style() const { return style_; }
  bool is_tf() const { return style_ == DemoStyle::kTensorFlow; }
  StringId Intern(std::string_view s) { return builder_.Intern(s); }
  ArgSetId AddArgs(std::span<const Arg> args) { return builder_.AddArgs(args); }
  void set_window_start(TimeNs t) { window_start_ = t; }
  // Sizes the slice table up front (a 10 M-slice demo would otherwise copy it
  // ~20 times while growing).
  void ReserveSlices(size_t n) { builder_.trace().mutable_slices().Reserve(n); }
  bool InWindow(TimeNs start) const { return start >= window_start_; }

  const DemoCategories& cats() const { return cats_; }

  // Main-thread slices nest: Open ... Close. Args are attached at Open.
  void Open(TimeNs start, StringId name, StringId cat, HostTag tag, std::span<const Arg> args = {});
  SliceId Close(TimeNs end);  // None when the slice started before the window
  SliceId MainLeaf(TimeNs start, TimeNs end, StringId name, StringId cat, HostTag tag, std::span<const Arg> args = {}) {
    Open(start, name, cat, tag, args);
    return Close(end);
  }
  // Input-pipeline slices (reader, workers); not nested.
  void PipelineSlice(DemoThread thread, TimeNs start, TimeNs end, StringId name, StringId cat);
  // A GPU activity; `launch_start` feeds the truth for kernels.
  SliceId GpuSlice(DemoStream stream, TimeNs start, TimeNs end, StringId name, StringId cat, GpuKind kind,
                   std::span<const Arg> args, TimeNs launch_start = 0);
  // The TF device "Steps" row (no-op in PyTorch style).
  void StepsRow(TimeNs start, TimeNs end, int64_t step_num);
  // One GPU 0 memory event on the main thread: a Kineto
  // `[memory]` instant, or in TF style an XSpace-named MemoryAllocation /
  // MemoryDeallocation of allocator GPU_0_bfc. `bytes` < 0 frees; the levels
  // are those after the event. Dropped before the window.
  void MemoryEvent(TimeNs ts, int64_t bytes, uint64_t addr, int64_t allocated, int64_t reserved, StringId op);
  static constexpr int64_t kGpuMemoryBytes = 16'945'512'448;  // the V100-16GB of deviceProperties

  void NoteLaunch(uint64_t correlation, SliceId launch) {
    if (!launch.is_none()) builder_.NoteLaunch(correlation, launch);
  }
  void NoteDeviceActivity(uint64_t correlation, SliceId activity) {
    if (!activity.is_none()) builder_.NoteDeviceActivity(correlation, activity);
  }

  DemoRecords& records() { return records_; }
  Trace Finish();

 private:
  struct OpenSlice {
    TimeNs start;
    StringId name, cat;
    ArgSetId args;
    HostTag tag;
    int8_t cause;
    bool emitted;
  };
  void CreateTracks();
  int8_t CauseFor(HostTag tag) const;

  DemoStyle style_;
  bool record_truth_;
  loaders::TraceBuilder builder_;
  DemoCategories cats_;
  TimeNs window_start_ = 0;
  ArgSetId metadata_;  // trace-level key/values (Kineto's schemaVersion, deviceProperties)
  struct MemoryKeys {
    StringId memory, cat, total_reserved, total_allocated, bytes, addr, device_id, device_type;          // Kineto
    StringId alloc, free, allocator, gpu0_bfc, bytes_allocated, bytes_reserved, bytes_available, allocation_bytes,
        x_addr, tf_op;  // XSpace names
  };
  MemoryKeys mem_{};
  TrackId main_, reader_, workers_[kDemoMapWorkers], streams_[3], steps_row_;
  std::vector<OpenSlice> stack_;
  DemoRecords records_;
};

}  // namespace stepline::demo
