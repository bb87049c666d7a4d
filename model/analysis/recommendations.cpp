// Recommendation sentences (see recommendations.h). Each idle cause that
// reaches the "moderately" threshold gets one sentence naming the share, the
// events most blamed for it, and what usually helps; with none, the step is
// compute-bound and the sentence names the costliest device op.
#include "model/analysis/recommendations.h"

#include <algorithm>
#include <cstdio>

namespace stepline::analysis {
namespace {

std::string Percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", p);
  return buf;
}

std::string EventList(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  std::string out = " (";
  for (size_t i = 0; i < names.size() && i < 3; ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out + ")";
}

struct CauseText {
  IdleCause cause;
  const char* bound;   // "input-bound"
  const char* waits;   // "the GPU waits for input"
  const char* advice;  // "add loader workers or prefetch"
};

constexpr CauseText kCauseTexts[] = {
    {IdleCause::kInput, "input-bound", "the GPU waits for input",
     "add data-loader workers, prefetch, or cache and simplify the input pipeline"},
    {IdleCause::kMemcpyH2D, "bound by host-to-device copies", "the GPU waits for host-to-device copies",
     "use pinned memory and asynchronous copies, prefetch the next batch to the device, or send less data"},
    {IdleCause::kMemcpyD2H, "bound by device-to-host copies", "the GPU waits for device-to-host copies",
     "fetch results to the host less often, or overlap the copies with compute"},
    {IdleCause::kSync, "synchronization-bound", "the host blocks on the GPU and then leaves it idle",
     "avoid .item(), .cpu() and printing device tensors inside the step, or synchronize once every few steps"},
    {IdleCause::kLaunch, "kernel-launch-bound", "the GPU waits for kernel launches",
     "do more work per kernel (a larger batch), fuse ops (torch.compile, XLA) or capture the step in a CUDA graph"},
    {IdleCause::kHostCompute, "host-compute-bound", "the GPU waits for host work",
     "move that work off the step's critical path (a background thread, fewer or cheaper callbacks) or onto the GPU"},
    {IdleCause::kGraph, "bound by dependencies inside graph replays",
     "the GPU waits between the nodes of graph replays",
     "look at the graph's dependencies: serialized branches, event waits and host nodes between its kernels"},
    {IdleCause::kOther, "idle for other reasons", "the GPU is idle with no host cause found",
     "look at the longest gaps: launched work waiting on other streams or events, or untraced host activity"},
};

// The stack-specific remedies; the table's CUDA text otherwise.
const char* StackAdvice(IdleCause cause, AdviceStack stack, const char* cuda_advice) {
  if (stack == AdviceStack::kRocm && cause == IdleCause::kLaunch) {
    return "do more work per kernel (a larger batch), fuse ops (torch.compile, XLA) or capture the step in a HIP "
           "graph (hipGraphInstantiate / hipGraphLaunch)";
  }
  if (stack == AdviceStack::kRocm && cause == IdleCause::kSync) {
    return "avoid .item(), .cpu(), hipDeviceSynchronize and printing device tensors inside the step, or synchronize "
           "once every few steps";
  }
  if (stack != AdviceStack::kXla) return cuda_advice;
  switch (cause) {
    case IdleCause::kLaunch:
      return "run more work per XLA program: jit the whole step (one program instead of many small ones), a larger "
             "batch, or loop on the device with lax.scan / fori_loop";
    case IdleCause::kSync:
      return "avoid block_until_ready, jax.device_get and printing device arrays inside the step, or fetch results "
             "once every few steps";
    case IdleCause::kInput:
      return "prefetch batches to the device (e.g. flax prefetch_to_device, tf.data prefetch) and add input threads";
    case IdleCause::kMemcpyH2D:
      return "keep data on the device between steps, prefetch the next batch while the step runs, or send less data";
    case IdleCause::kHostCompute:
      return "move that work off the step's critical path or into the jitted program";
    default: return cuda_advice;
  }
}

// "the GPU waits ..." with the device's own word.
std::string WithDevice(std::string text, const std::string& word) {
  if (word == "GPU") return text;
  for (size_t at = text.find("GPU"); at != std::string::npos; at = text.find("GPU", at + word.size())) {
    text.replace(at, 3, word);
  }
  return text;
}

}  // namespace

std::string_view BoundAdverb(double percent) {
  if (percent >= kHighlyBoundPercent) return "Highly ";
  if (percent >= kModeratelyBoundPercent) return "Moderately ";
  return "";
}

std::vector<std::string> ComputeRecommendations(const RecommendationInput& in) {
  std::vector<std::string> out;
  if (in.step_ns <= 0) return out;
  auto share = [&](DurNs ns) { return 100.0 * static_cast<double>(ns) / static_cast<double>(in.step_ns); };
  std::vector<std::pair<double, std::string>> findings;
  // Device copies and memsets with no kernel running fall in gaps with no
  // host cause: they are waits for a copy (their own finding below), not
  // idle "for other reasons".
  const DurNs device_copies = At(in.breakdown, TimeCategory::kMemcpyOther) + At(in.breakdown, TimeCategory::kMemset);
  for (const CauseText& t : kCauseTexts) {
    DurNs ns = At(in.idle_by_cause, t.cause);
    if (t.cause == IdleCause::kOther) ns = std::max<DurNs>(0, ns - device_copies);
    const double p = share(ns);
    if (p < kModeratelyBoundPercent) continue;
    std::string s = std::string(BoundAdverb(p)) + t.bound + ": " + WithDevice(t.waits, in.device_word) + " " +
                    Percent(p) + " of the step" + EventList(in.top_events[static_cast<size_t>(t.cause)]) + "; " +
                    WithDevice(StackAdvice(t.cause, in.stack, t.advice), in.device_word) + ".";
    if (t.cause == IdleCause::kInput && in.busiest_input_thread_percent >= 90.0) {
      s += " The host input threads are saturated (" + in.busiest_input_thread + " is busy " +
           Percent(in.busiest_input_thread_percent) + " of the step): parallelize or cache the preprocessing.";
    }
    findings.emplace_back(p, std::move(s));
  }
  const double collective = share(At(in.breakdown, TimeCategory::kCollective));
  if (collective >= kModeratelyBoundPercent) {
    findings.emplace_back(collective, std::string(BoundAdverb(collective)) +
                                          "communication-bound: collectives run without overlapping compute " +
                                          Percent(collective) + " of the step" + EventList(in.top_collective_ops) +
                                          "; overlap communication with compute or bucket gradients.");
  }
  // Copies on the device with no kernel running (XLA's copy-start/copy-done
  // waits, D2D copies): the step waits for data to move, not for compute.
  const double copies = share(At(in.breakdown, TimeCategory::kMemcpyOther));
  if (copies >= kModeratelyBoundPercent) {
    findings.emplace_back(copies, std::string(BoundAdverb(copies)) + "bound by on-device copies: the " +
                                      in.device_word + " waits for copies to finish " + Percent(copies) +
                                      " of the step" + EventList(in.top_copy_ops) +
                                      "; start the copies earlier so they overlap compute, or keep the data where it "
                                      "is used.");
  }
  std::stable_sort(findings.begin(), findings.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& f : findings) out.push_back(std::move(f.second));
  if (out.empty()) {
    const double compute = share(At(in.breakdown, TimeCategory::kCompute));
    std::string s = "Compute-bound: the " + in.device_word + " computes " + Percent(compute) + " of the step";
    if (!in.top_device_op.empty()) {
      s += "; the costliest device op is " + in.top_device_op + " (" + Percent(in.top_device_op_percent) +
           " of device time), optimize it first (mixed precision, a better algorithm or layout)";
    }
    out.push_back(s + ".");
  }
  return out;
}

}  // namespace stepline::analysis
