// The XSpace loader: framing, then one PlaneReader per plane, then what spans
// planes (steps, wall clock, metadata, producer messages).
//
// What becomes what:
//   /host:CPU          process pid 701 (TSL's host pid), one kHostThread track
//                      per line: tid = line id, name = display_name or name.
//   /device:GPU:N      process pid 1 + N with device_id N. "Stream #..." lines
//                      (and other non-derived lines, e.g. "CUPTI overhead")
//                      are kGpuStream tracks; Steps / Framework|TensorFlow Ops /
//                      XLA Ops / XLA Modules / name scopes / Launch Stats /
//                      Source code (also "... - from #N") are kGpuDerived
//                      tracks of the same device; "_counters_" becomes one
//                      kCounter track per counter name (value = its number stat).
//   /device:TPU:N      process pid 1 + N, every line a kGpuDerived track.
//   Task Environment   no tracks; its stats are trace metadata, and
//                      profile_start_time gives wall_clock_origin_ns.
//   /host:metadata     no tracks; "<plane>/programs" = number of XLA programs.
//   any other plane    a process (pid 501 + plane id) with kHostThread tracks
//                      when it has lines with events; its stats are metadata.
//   Plane stats of every plane go to TraceInfo.metadata as "<plane>/<stat>";
//   XSpace.hostnames as "hostnames"; XSpace.errors / warnings become
//   kProducerWarning diagnostics. Empty lines make no track.
// Row order within a process: display_id, else id (see PlaneReader::OpenTrack).
// Events: host events with no duration are instants (unless they carry a
// correlation_id), everything else a slice; aggregated events
// (num_occurrences, no time) are skipped with one counted kUnsupportedFeature.
// Time: see PlaneReader::AppendEvent (both ends floored to the ns).
#include "loaders/xspace/xspace_loader.h"

#include <algorithm>
#include <optional>
#include <thread>

#include "model/page_prefault.h"
#include "loaders/trace_builder.h"
#include "loaders/xspace/xline_decoder.h"
#include "loaders/xspace/xplane_reader.h"
#include "loaders/xspace/xspace_cut_repair.h"
#include "loaders/xspace/xspace_framing.h"
#include "loaders/xspace/xspace_sizing.h"
#include "loaders/xspace/xspace_steps.h"

namespace stepline::loaders {
namespace {

using xspace::SpaceState;

// Line timestamps at or above this are already ns since the Unix epoch
// (1e17 ns is 1973); below it they are relative to the profile start.
constexpr int64_t kEpochTimestampFloorNs = 100'000'000'000'000'000;

void RecordProducerMessages(const xspace::XSpaceFraming& framing, const char* base, TraceBuilder* builder) {
  for (const auto* list : {&framing.errors, &framing.warnings}) {
    const char* kind = list == &framing.errors ? "profiler error: " : "profiler warning: ";
    for (std::string_view text : *list) {
      builder->diag().Record(DiagCode::kProducerWarning, static_cast<uint64_t>(text.data() - base),
                             std::string(kind) + std::string(text.substr(0, 500)));
    }
  }
}

void AddSpaceMetadata(const xspace::XSpaceFraming& framing, SpaceState* state) {
  TraceBuilder& builder = *state->builder;
  if (!framing.hostnames.empty()) {
    std::string joined;
    for (std::string_view h : framing.hostnames) {
      if (!joined.empty()) joined += ", ";
      joined += h;
    }
    state->metadata_args.push_back(Arg{builder.Intern("hostnames"), ArgValue::String(builder.Intern(joined))});
  }
  builder.trace().mutable_info().metadata = builder.AddArgs(state->metadata_args);
}

// trace-formats.md 1.3: files from a profiler session have line timestamps
// relative to the profile start, whose wall-clock time is the Task
// Environment's profile_start_time. Model time stays as in the file; the
// origin says what 0 is. Epoch-based timestamps need no origin.
void SetClockOrigins(const SpaceState& state, TraceInfo* info) {
  const bool has_lines = state.min_line_timestamp_ns != INT64_MAX;
  if (state.has_profile_start && has_lines && state.min_line_timestamp_ns < state.profile_start_ns &&
      state.min_line_timestamp_ns < kEpochTimestampFloorNs) {
    info->wall_clock_origin_ns = state.profile_start_ns;
    info->display_origin_ns = 0;
  } else if (state.has_profile_start && has_lines && state.min_line_timestamp_ns >= kEpochTimestampFloorNs) {
    info->wall_clock_origin_ns = 0;  // model time is already epoch ns
    info->display_origin_ns = state.profile_start_ns;
  }
}

Result<Trace, LoadError> LoadXSpaceImpl(std::string_view bytes, const std::string& path, const LoadOptions& options,
                                  LoadProgress* progress, const DecodedInput* input,
                                  const xspace::CutRepair* cut = nullptr) {
  if (bytes.empty()) return MakeUnexpected(LoadError{LoadErrorCode::kEmpty, path, 0, LoadError::kNoOffset, "empty XSpace"});
  // A field running past the end is a cut file (a download or copy that
  // stopped): the prefix is repaired and loaded. A length no protobuf
  // writer can produce is still an error (xspace_framing.h).
  auto framing = xspace::WalkXSpace(bytes, path, /*tolerate_truncation=*/true);
  if (!framing.ok()) return MakeUnexpected(framing.error());
  if (framing->truncated_at != UINT64_MAX && cut == nullptr) {
    auto repaired = xspace::RepairCutXSpace(bytes, framing->truncated_at, path);
    if (!repaired.ok()) return MakeUnexpected(repaired.error());
    if (repaired->kept_bytes == 0) {
      return MakeUnexpected(LoadError{LoadErrorCode::kProtobufInvalid, path, 0, LoadError::kNoOffset,
                                      "XSpace: " + repaired->detail + "; nothing before the cut to load"});
    }
    return LoadXSpaceImpl(repaired->bytes, path, options, progress, input, &*repaired);
  }
  if (progress) progress->bytes_total.store(bytes.size());

  TraceBuilder builder("xplane");
  SpaceState state;
  state.builder = &builder;
  state.options = options;
  state.path = path;
  state.progress = progress;
  state.input = bytes.data();
  // The worker decodes lines ahead of the builder when a second thread is
  // allowed (options.threads: 0 = hardware concurrency, 1 = this thread only).
  const unsigned threads = options.threads > 0 ? static_cast<unsigned>(options.threads)
                                               : std::max(1u, std::thread::hardware_concurrency());
  // Sized once (xspace_sizing.h). Most events become slices and each one
  // with args an arg set; host instants and counter samples are the exception.
  // Below 16 MB the pass costs more than the growth it saves: on the 3 MB
  // xprof file it is 8.4M of the building thread's 51.8M instructions, while
  // growing the tables instead adds 3M (callgrind).
  constexpr size_t kMinSizedBytes = 16'000'000;
  // Pre-faulting pays off once the tables span many pages (page_prefault.h).
  constexpr size_t kMinPrefaultBytes = 16'000'000;
  std::optional<PagePrefaulter> prefault;
  if (bytes.size() >= kMinSizedBytes) {
    const xspace::XSpaceSize size = xspace::MeasureXSpace(bytes.data(), framing->planes, options.keep_args, threads);
    builder.trace().mutable_slices().Reserve(size.events);
    if (options.keep_args) builder.trace().mutable_args().Reserve(size.events, size.arg_rows);
    if (threads > 1 && bytes.size() >= kMinPrefaultBytes) {
      auto blocks = builder.trace().slices().ReservedStorage();
      for (const auto& b : builder.trace().args().ReservedStorage()) blocks.push_back(b);
      prefault.emplace(std::move(blocks));
    }
  }
  xspace::LinePipeline pipeline(bytes.data(), framing->planes, threads > 1);
  state.lines = &pipeline;
  RecordProducerMessages(*framing, bytes.data(), &builder);
  for (size_t i = 0; i < framing->planes.size(); ++i) {
    xspace::PlaneReader reader(&state, framing->planes[i], i);
    LoadError error;
    if (!reader.Read(&error)) return MakeUnexpected(std::move(error));
  }
  if (cut != nullptr) builder.diag().Record(DiagCode::kTruncated, cut->kept_bytes, cut->detail);
  if (state.aggregated_events > 0) {
    builder.diag().Add(DiagCode::kUnsupportedFeature, state.aggregated_events, state.aggregated_first_offset,
                       "aggregated XEvents (num_occurrences, no timestamp) skipped");
  }
  xspace::AddHostStepsTrack(&state);
  AddSpaceMetadata(*framing, &state);

  TraceInfo& info = builder.trace().mutable_info();
  info.source_path = path;
  info.input_bytes = cut ? cut->input_bytes : bytes.size();
  info.file_bytes = input ? input->file_bytes : info.input_bytes;
  info.compression = input ? input->compression : "";
  SetClockOrigins(state, &info);
  const bool origin_known = info.wall_clock_origin_ns != 0 || info.display_origin_ns != 0;
  Trace trace = builder.Finish();
  if (!origin_known) trace.mutable_info().display_origin_ns = trace.span().start_ns;
  if (progress) progress->bytes_done.store(bytes.size());
  return trace;
}

}  // namespace

Result<Trace, LoadError> LoadXSpace(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                    LoadProgress* progress) {
  return LoadXSpaceImpl(input.bytes.view(), path, options, progress, &input);
}

Result<Trace, LoadError> LoadXSpaceBytes(std::string_view bytes, const std::string& path, const LoadOptions& options,
                                         LoadProgress* progress) {
  return LoadXSpaceImpl(bytes, path, options, progress, nullptr);
}

}  // namespace stepline::loaders
