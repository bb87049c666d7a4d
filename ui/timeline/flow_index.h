// FlowIndex: what only the flow arrows and the details panel's flow links read
// (the flows by time and by target slice). The window builds it after the
// first frame, on a worker, so the timeline never waits for it;
// FlowIndexSlot hands it from that worker to the UI thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

#include "model/trace.h"
#include "ui/timeline/flow_window.h"

namespace stepline::ui {

struct FlowIndex {
  // Sorts the flows by target on a second thread while this one builds the window.
  explicit FlowIndex(const Trace& trace);

  // Flows by time, for drawing every arrow in view without visiting them all.
  FlowWindow window;
  // Flow rows sorted by their `to` slice (the table itself is sorted by `from`).
  std::vector<uint32_t> by_to;

 private:
  FlowIndex(const Trace& trace, std::future<std::vector<uint32_t>> by_to);
};

// A FlowIndex published once by the thread that builds it; readers (any
// thread) see null until then and never wait.
class FlowIndexSlot {
 public:
  const FlowIndex* get() const { return ready_.load(std::memory_order_acquire) ? index_.get() : nullptr; }
  // The first call publishes; later ones are ignored (the index is immutable once seen).
  void Publish(std::unique_ptr<const FlowIndex> index);

 private:
  std::mutex mutex_;                        // serializes publishers
  std::unique_ptr<const FlowIndex> index_;  // written once, before ready_
  std::atomic<bool> ready_{false};
};

}  // namespace stepline::ui
