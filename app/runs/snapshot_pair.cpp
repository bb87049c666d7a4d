// LoadTraceWithSnapshot: the trace, then its snapshot on top.
#include "app/runs/snapshot_pair.h"

#include <filesystem>

#include "loaders/torch_snapshot/snapshot_overlay.h"

namespace stepline::app {

Result<Trace, std::string> LoadTraceWithSnapshot(const std::string& trace_path, const std::string& snapshot_path,
                                                 std::string* notice, loaders::LoadProgress* progress) {
  auto loaded = loaders::LoadFile(trace_path, {}, progress);
  if (!loaded) return Unexpected<std::string>{loaded.error().ToString()};
  Trace trace = std::move(loaded).value();
  if (progress != nullptr && progress->cancel.load()) return Unexpected<std::string>{"cancelled"};
  const loaders::SnapshotOverlay overlay = loaders::AddMemorySnapshot(
      &trace, std::filesystem::path(trace_path).filename().string(), snapshot_path, progress);
  if (!overlay.error.empty()) return Unexpected<std::string>{overlay.error};
  if (notice != nullptr) *notice = overlay.notice;
  return trace;
}

}  // namespace stepline::app
