// The demo's training-loop simulation; see demo_generator.h for the model.
//
// [SECTION] Constants and the seeded PRNG
// [SECTION] DemoSimulation: steps, input pipeline, ops, launches, copies, syncs
// [SECTION] GenerateDemo
#include "demo/demo_generator.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "demo/demo_emitter.h"
#include "demo/demo_network.h"
#include "demo/demo_truth.h"

namespace stepline::demo {
namespace {

// ============================================================================
// [SECTION] Constants and the seeded PRNG
// ============================================================================

// Host costs on a profiled V100 box, microseconds.
constexpr double kLaunchUs = 26;              // cudaLaunchKernel / cuLaunchKernel with CUPTI on
constexpr double kLaunchReadyFraction = 0.6;  // a kernel can start this far into its launch call
constexpr double kCopyCallUs = 30;            // async memcpy call
constexpr double kOpPreUs = 4, kOpPostUs = 2, kInnerPreUs = 3, kInnerPostUs = 1.5, kBetweenLaunchesUs = 1;
constexpr double kKernelGapUs = 2.5;  // GPU front-end gap between back-to-back kernels
constexpr double kKernelFloorUs = 3;  // shortest kernel
constexpr double kDequeueUs = 300;    // IteratorGetNext on a ready batch
constexpr double kHandoffUs = 50;     // from "batch ready" to the iterator returning it
constexpr double kSyncWakeUs = 90;    // blocking sync: the thread wakes this long after the GPU is done
constexpr double kScalarTailUs = 20;  // .item()/.numpy() after the copy returns
constexpr double kScalarCopyUs = 2;   // a 4-byte D2H copy
constexpr double kLoopUs = 40;        // Python between two steps
constexpr double kH2DGBps = 12.5;     // pinned host -> device
constexpr size_t kPartialOps = 40;    // ops of the step the profile window cuts off
constexpr int kPrefetchBatches = 2;
constexpr int kBatchRef = 64;
// GPU memory: weights and optimizer state held from before the
// capture, one activation per op freed when the step's loss has been read,
// and the caching allocator reserving in 64 MiB chunks. No jitter, so the
// random sequence (and every other planted number) is unchanged.
constexpr int64_t kBaseMemoryBytes = 1'200'000'000;
constexpr double kActivationMbAtRef = 4;
constexpr int64_t kReserveChunk = int64_t{64} << 20;

// SplitMix64: tiny, fast, and the same numbers on every platform (std::
// distributions are not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // `us` microseconds, scaled by a uniform factor in [1 - frac, 1 + frac], as ns >= 1.
  DurNs Jitter(double us, double frac) {
    const double f = 1.0 + frac * (2.0 * Uniform() - 1.0);
    return std::max<DurNs>(1, std::llround(us * 1000.0 * f));
  }

 private:
  uint64_t state_;
};

// One pipeline slice, held until the profile's end is known.
struct PipelineSlice {
  DemoThread thread;
  TimeNs start_ns, end_ns;
  uint8_t kind;  // 0 read, 1 map, 2 assemble
};

// ============================================================================
// [SECTION] DemoSimulation
// ============================================================================

class DemoSimulation {
 public:
  DemoSimulation(const DemoScenarioParams& p, const DemoOptions& o, DemoEmitter* e)
      : p_(p),
        e_(*e),
        rng_(o.seed),
        net_(BuildDemoNetwork(o.style, p.output_conv_11x11)),
        batch_factor_(static_cast<double>(p.batch) / kBatchRef) {
    InternNames();
  }

  // Steps 1..marked are marked; step 0's tail and the first ops of step
  // marked + 1 frame them.
  void Run(int marked) {
    const size_t host_per_op = e_.is_tf() ? 1 : 2, scalar = e_.is_tf() ? 3 : 5;
    const size_t per_step = 2 * net_.kernel_count + host_per_op * net_.ops.size() +
                            (p_.item_after_every_op ? scalar * net_.ops.size() : 0) +
                            static_cast<size_t>(p_.records_per_batch + p_.batch) + 16;
    e_.ReserveSlices(per_step * static_cast<size_t>(marked + 2));
    for (int g = 0; g <= marked + 1; ++g) RunStep(g, marked);
    for (int g = marked + 2; g <= marked + 1 + kPrefetchBatches; ++g) ProduceBatch(g);
    FlushPipeline(std::max(host_, gpu_free_));
  }
  const std::vector<DemoStepSpan>& steps() const { return steps_; }
  int64_t memory_peak() const { return mem_peak_; }

 private:
  struct KernelStatic {  // per (op, kernel): what does not change between steps
    StringId name, details, grid, block;
    double us;
    int regs, smem, occupancy;
  };
  struct Names {
    StringId input, input_inner, launch, copy_call, h2d, d2h, sync, scalar, scalar_inner, to, to_copy, copy_, callback,
        optimizer, read, map, assemble, save, save_inner;
  };

  void InternNames();
  void RunStep(int g, int marked);
  void Input(int g);
  void CopyInput();
  void RunOp(size_t op);
  void LaunchKernel(const KernelStatic& k, size_t op, int64_t ext);
  void FetchScalar();
  void ProduceBatch(int g);
  void FlushPipeline(TimeNs profile_end);
  // Allocates `bytes` on GPU 0 (kept in step_allocs_ unless `leak`), or frees
  // every activation of the step.
  void MemAlloc(TimeNs ts, int64_t bytes, StringId op, bool leak);
  void MemFreeStep();

  TimeNs KernelStart(TimeNs ready) {
    TimeNs start = std::max(ready, gpu_free_ + rng_.Jitter(kKernelGapUs, 0.4));
    if (first_kernel_of_step_) start = std::max(start, data_ready_);
    first_kernel_of_step_ = false;
    return start;
  }
  // TensorFlow's "correlation_id" string, held as the loader holds it.
  static ArgValue CorrelationString(uint64_t corr) { return ArgValue::DecimalString(corr); }
  ArgValue Str(StringId s) const { return ArgValue::String(s); }

  const DemoScenarioParams& p_;
  DemoEmitter& e_;
  Rng rng_;
  DemoNetwork net_;
  double batch_factor_;
  Names n_{};
  std::vector<std::vector<KernelStatic>> kernels_;  // per op
  std::vector<StringId> op_names_, inner_names_, tf_ops_;
  // Arg keys.
  StringId k_corr_, k_group_, k_details_, k_tf_op_, k_step_num_, k_ext_, k_device_, k_stream_, k_regs_, k_smem_,
      k_grid_, k_block_, k_occ_, k_cbid_, k_bytes_, k_bandwidth_, k_context_;

  TimeNs host_ = 0, gpu_free_ = 0, h2d_free_ = 0, data_ready_ = 0;
  bool first_kernel_of_step_ = true;
  uint64_t next_correlation_ = 1;
  int64_t next_external_id_ = 1;
  StringId step_group_;  // the current step number as a string (TF group_id)
  // Input pipeline, per batch g.
  std::vector<TimeNs> read_end_, ready_, consumed_;
  std::vector<PipelineSlice> pipeline_;
  std::vector<DemoStepSpan> steps_;
  // GPU memory.
  int64_t mem_allocated_ = kBaseMemoryBytes, mem_reserved_ = 0, mem_peak_ = 0;
  uint64_t next_addr_ = 0x7f0000000000;
  std::vector<std::pair<uint64_t, int64_t>> step_allocs_;
};

void DemoSimulation::InternNames() {
  const bool tf = e_.is_tf();
  auto s = [&](std::string_view tf_name, std::string_view pt_name) { return e_.Intern(tf ? tf_name : pt_name); };
  n_.input = s("IteratorGetNext", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__");
  n_.input_inner = e_.Intern("tf_data_iterator_get_next");
  n_.launch = s("cuLaunchKernel", "cudaLaunchKernel");
  n_.copy_call = s("cuMemcpyHtoDAsync_v2", "cudaMemcpyAsync");
  n_.h2d = s("MemcpyH2D", "Memcpy HtoD (Pinned -> Device)");
  n_.d2h = s("MemcpyD2H", "Memcpy DtoH (Device -> Pageable)");
  n_.sync = s("cuMemcpyDtoH_v2", "cudaStreamSynchronize");
  n_.scalar = s("Tensor.numpy", "aten::item");
  n_.scalar_inner = e_.Intern("aten::_local_scalar_dense");
  n_.to = e_.Intern("aten::to");
  n_.to_copy = e_.Intern("aten::_to_copy");
  n_.copy_ = e_.Intern("aten::copy_");
  n_.callback = s("on_train_batch_end", "[Callback]SegmentationLogger.on_train_batch_end");
  n_.optimizer = e_.Intern("Optimizer.step#Adam.step");
  n_.save = s("tensorflow/python/checkpoint/checkpoint_management.py(813): save", "torch/serialization.py(628): save");
  n_.save_inner = s("checkpoint/functional_saver.py(402): save", "torch/serialization.py(853): _save");
  n_.read = s("Iterator::Model::Prefetch::ParallelMapV2::Filter::TFRecord", "SegmentationDataset.read_record");
  n_.map = s("Iterator::Model::Prefetch::ParallelMapV2", "SegmentationDataset.__getitem__");
  n_.assemble = s("Iterator::Model::Prefetch::BatchV2", "default_collate");

  // TensorBoard args are XSpace stat names; Kineto's are its own.
  k_corr_ = s("correlation_id", "correlation");
  k_group_ = e_.Intern("group_id");
  k_details_ = e_.Intern("kernel_details");
  k_tf_op_ = e_.Intern("tf_op");
  k_step_num_ = e_.Intern("step_num");
  k_ext_ = e_.Intern("External id");
  k_device_ = e_.Intern("device");
  k_context_ = e_.Intern("context");
  k_stream_ = e_.Intern("stream");
  k_regs_ = e_.Intern("registers per thread");
  k_smem_ = e_.Intern("shared memory");
  k_grid_ = e_.Intern("grid");
  k_block_ = e_.Intern("block");
  k_occ_ = e_.Intern("est. achieved occupancy %");
  k_cbid_ = e_.Intern("cbid");
  k_bytes_ = e_.Intern("bytes");
  k_bandwidth_ = e_.Intern("memory bandwidth (GB/s)");

  for (const DemoOpSpec& op : net_.ops) {
    op_names_.push_back(e_.Intern(op.name));
    inner_names_.push_back(op.inner_name.empty() ? StringId() : e_.Intern(op.inner_name));
    const size_t slash = op.name.rfind('/');
    tf_ops_.push_back(e_.Intern(op.name + ":" + op.name.substr(slash == std::string::npos ? 0 : slash + 1)));
    std::vector<KernelStatic>& ks = kernels_.emplace_back();
    for (const DemoKernelSpec& k : op.kernels) {
      const double f = k.batch_scaled ? batch_factor_ : 1.0;
      const int grid_x = std::max(1, static_cast<int>(std::lround(k.grid[0] * f)));
      const int occupancy = std::min(100, 12 + (k.registers_per_thread <= 32 ? 50 : 2'000 / k.registers_per_thread));
      auto dims = [](int x, int y, int z) {
        return "[" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "]";
      };
      const std::string details = "regs:" + std::to_string(k.registers_per_thread) +
                                  " static_shared:0 dynamic_shared:" + std::to_string(k.shared_memory_bytes) +
                                  " grid:" + std::to_string(grid_x) + "," + std::to_string(k.grid[1]) + "," +
                                  std::to_string(k.grid[2]) + " block:" + std::to_string(k.block[0]) + "," +
                                  std::to_string(k.block[1]) + "," + std::to_string(k.block[2]) +
                                  " occ_pct:" + std::to_string(occupancy) + ".0";
      ks.push_back({e_.Intern(k.name), e_.Intern(details), e_.Intern(dims(grid_x, k.grid[1], k.grid[2])),
                    e_.Intern(dims(k.block[0], k.block[1], k.block[2])), std::max(kKernelFloorUs, k.base_us * f),
                    k.registers_per_thread, k.shared_memory_bytes, occupancy});
    }
  }
}

void DemoSimulation::RunStep(int g, int marked) {
  const bool is_marked = g >= 1 && g <= marked, partial = g == marked + 1;
  const int64_t step_num = g;
  const TimeNs step_start = host_;
  step_group_ = e_.Intern(std::to_string(step_num));
  if (is_marked) {
    if (e_.is_tf()) {
      const Arg args[] = {{k_step_num_, Str(step_group_)}};
      e_.Open(host_, e_.Intern("train"), StringId(), HostTag::kStepMarker, args);
    } else {
      e_.Open(host_, e_.Intern("ProfilerStep#" + std::to_string(step_num)), e_.cats().user_annotation,
              HostTag::kStepMarker);
    }
  }
  first_kernel_of_step_ = true;
  Input(g);
  CopyInput();
  const size_t op_count = partial ? std::min(kPartialOps, net_.ops.size()) : net_.ops.size();
  for (size_t i = 0; i < op_count; ++i) {
    if (!e_.is_tf() && i == net_.optimizer_begin)
      e_.Open(host_, n_.optimizer, e_.cats().user_annotation, HostTag::kNone);
    RunOp(i);
    if (p_.item_after_every_op) FetchScalar();
  }
  if (!e_.is_tf() && op_count > net_.optimizer_begin) e_.Close(host_);
  if (partial) return;
  if (g == 0) e_.set_window_start(host_);  // the profile opens as step 0 syncs on its loss
  FetchScalar();
  MemFreeStep();
  const TimeNs cb_end = host_ + rng_.Jitter(p_.callback_us, 0.05);
  e_.MainLeaf(host_, cb_end, n_.callback, e_.cats().user_annotation, HostTag::kCallback);
  host_ = cb_end;
  if (is_marked && p_.checkpoint_every > 0 && step_num % p_.checkpoint_every == 0) {
    const TimeNs end = host_ + rng_.Jitter(p_.checkpoint_us, 0.05);
    e_.Open(host_, n_.save, e_.cats().user_annotation, HostTag::kCheckpoint);
    e_.MainLeaf(host_ + 20'000, end - 20'000, n_.save_inner, e_.cats().user_annotation, HostTag::kNone);
    e_.Close(host_ = end);
  }
  if (is_marked) {
    e_.Close(host_);
    e_.StepsRow(step_start, host_, step_num);
    steps_.push_back({step_num, step_start, host_});
  }
  host_ += rng_.Jitter(kLoopUs, 0.3);
}

// The main thread takes batch g from the prefetch buffer, waiting if the
// pipeline has not produced it yet.
void DemoSimulation::Input(int g) {
  ProduceBatch(g);
  const TimeNs start = host_;
  // One draw a statement: the order of two draws inside one call is
  // unspecified (GCC takes the second first, clang the first), and a demo
  // must not depend on the compiler. This is GCC's order, the goldens'.
  const DurNs handoff = rng_.Jitter(kHandoffUs, 0.3);
  const DurNs dequeue = rng_.Jitter(kDequeueUs, 0.2);
  const TimeNs end = std::max(start + dequeue, ready_[g] + handoff);
  e_.Open(start, n_.input, e_.cats().user_annotation, HostTag::kInput);
  if (e_.is_tf()) e_.MainLeaf(start + 5'000, end - 5'000, n_.input_inner, StringId(), HostTag::kInputInner);
  e_.Close(end);
  consumed_[g] = end;
  host_ = end;
}

// Batch g: the reader reads its records one by one (once batch g - 2 has
// left the buffer), the map workers share its samples, worker 0 batches them.
void DemoSimulation::ProduceBatch(int g) {
  if (static_cast<int>(ready_.size()) > g) return;
  read_end_.resize(g + 1, 0);
  ready_.resize(g + 1, 0);
  consumed_.resize(g + 1, 0);
  const TimeNs prev_read_end = g > 0 ? read_end_[g - 1] : 0;
  const TimeNs slot_free = g >= kPrefetchBatches ? consumed_[g - kPrefetchBatches] : 0;
  TimeNs t = std::max(prev_read_end, slot_free);
  for (int r = 0; r < p_.records_per_batch; ++r) {
    const TimeNs end = t + rng_.Jitter(p_.read_us_per_record, 0.1);
    pipeline_.push_back({DemoThread::kReader, t, end, 0});
    t = end;
  }
  read_end_[g] = t;
  const TimeNs map_start = std::max(t, g > 0 ? ready_[g - 1] : 0);
  TimeNs map_end = map_start;
  const int per_worker = (p_.batch + kDemoMapWorkers - 1) / kDemoMapWorkers;
  for (int w = 0; w < kDemoMapWorkers; ++w) {
    TimeNs wt = map_start;
    for (int s = 0; s < per_worker && w * per_worker + s < p_.batch; ++s) {
      const TimeNs end = wt + rng_.Jitter(p_.map_us_per_sample, 0.1);
      pipeline_.push_back({static_cast<DemoThread>(static_cast<int>(DemoThread::kWorker0) + w), wt, end, 1});
      wt = end;
    }
    map_end = std::max(map_end, wt);
  }
  const TimeNs ready = map_end + rng_.Jitter(p_.assemble_us, 0.1);
  pipeline_.push_back({DemoThread::kWorker0, map_end, ready, 2});
  ready_[g] = ready;
}

void DemoSimulation::FlushPipeline(TimeNs profile_end) {
  const StringId names[] = {n_.read, n_.map, n_.assemble};
  for (const PipelineSlice& s : pipeline_) {
    if (s.start_ns < profile_end)
      e_.PipelineSlice(s.thread, s.start_ns, s.end_ns, names[s.kind], e_.cats().user_annotation);
  }
}

// The input copy: TensorFlow on its own H2D stream, PyTorch on the default
// stream. The step's first kernel cannot start before it lands.
void DemoSimulation::CopyInput() {
  const uint64_t corr = next_correlation_++;
  const int64_t ext = next_external_id_++;
  const uint64_t bytes = static_cast<uint64_t>(p_.input_mb * 1e6);
  const bool tf = e_.is_tf();
  if (!tf) {
    const Arg args[] = {{k_ext_, ArgValue::Int(ext)}};
    e_.Open(host_, n_.to, e_.cats().cpu_op, HostTag::kNone, args);
    host_ += rng_.Jitter(kOpPreUs, 0.25);
    e_.Open(host_, n_.to_copy, e_.cats().cpu_op, HostTag::kNone, args);
    host_ += rng_.Jitter(kInnerPreUs, 0.25);
    e_.Open(host_, n_.copy_, e_.cats().cpu_op, HostTag::kNone, args);
    host_ += rng_.Jitter(kInnerPreUs, 0.25);
  }
  const TimeNs call_start = host_, call_dur = rng_.Jitter(kCopyCallUs, 0.15);
  SliceId call;
  if (tf) {
    const Arg args[] = {{k_corr_, CorrelationString(corr)}, {k_group_, Str(step_group_)}};
    call = e_.MainLeaf(call_start, call_start + call_dur, n_.copy_call, StringId(), HostTag::kCopyLaunch, args);
  } else {
    const Arg args[] = {{k_ext_, ArgValue::Int(ext)},
                        {k_cbid_, ArgValue::Int(41)},
                        {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))}};
    call = e_.MainLeaf(call_start, call_start + call_dur, n_.copy_call, e_.cats().runtime, HostTag::kCopyLaunch, args);
  }
  e_.NoteLaunch(corr, call);
  host_ = call_start + call_dur;

  const DurNs dur = rng_.Jitter(static_cast<double>(bytes) / (kH2DGBps * 1e3), 0.02);
  const TimeNs ready = call_start + static_cast<DurNs>(call_dur * kLaunchReadyFraction);
  const TimeNs start = tf ? std::max(ready, h2d_free_) : std::max(ready, gpu_free_ + rng_.Jitter(kKernelGapUs, 0.4));
  SliceId copy;
  if (tf) {
    const std::string details = "kind_src:pinned kind_dst:device size:" + std::to_string(bytes) + " dest:0 async:1";
    const Arg args[] = {{k_corr_, CorrelationString(corr)},
                        {k_group_, Str(step_group_)},
                        {e_.Intern("memcpy_details"), Str(e_.Intern(details))}};
    copy = e_.GpuSlice(DemoStream::kH2D, start, start + dur, n_.h2d, StringId(), GpuKind::kMemcpyH2D, args);
    h2d_free_ = start + dur;
  } else {
    const double gbps = static_cast<double>(bytes) / static_cast<double>(dur);
    const Arg args[] = {{k_ext_, ArgValue::Int(ext)},
                        {k_device_, ArgValue::Int(0)},
                        {k_context_, ArgValue::Int(1)},
                        {k_stream_, ArgValue::Int(7)},
                        {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))},
                        {k_bytes_, ArgValue::Int(static_cast<int64_t>(bytes))},
                        {k_bandwidth_, ArgValue::Double(std::round(gbps * 1e3) / 1e3)}};
    copy = e_.GpuSlice(DemoStream::kH2D, start, start + dur, n_.h2d, e_.cats().memcpy, GpuKind::kMemcpyH2D, args);
    gpu_free_ = start + dur;
  }
  e_.NoteDeviceActivity(corr, copy);
  data_ready_ = start + dur;
  if (!tf) {
    for (int i = 0; i < 3; ++i) {
      host_ += rng_.Jitter(i == 2 ? kOpPostUs : kInnerPostUs, 0.25);
      e_.Close(host_);
    }
  }
}

void DemoSimulation::RunOp(size_t op) {
  const int64_t ext = next_external_id_++;
  const Arg args[] = {{k_ext_, ArgValue::Int(ext)}};
  const std::span<const Arg> op_args = e_.is_tf() ? std::span<const Arg>() : std::span<const Arg>(args);
  e_.Open(host_, op_names_[op], e_.cats().cpu_op, HostTag::kNone, op_args);
  host_ += rng_.Jitter(kOpPreUs, 0.25);
  const StringId mem_op = e_.is_tf() ? op_names_[op] : StringId();  // TF names the op in tf_op
  // 1 ns before the first launch call starts, so the op itself is the innermost enclosing slice.
  const TimeNs mem_ts = host_ - 1;
  MemAlloc(mem_ts, std::max<int64_t>(65'536, std::llround(kActivationMbAtRef * 1e6 * batch_factor_)), mem_op, false);
  // The loss: the last op before the optimizer (its output kept by the leak).
  const size_t loss_op = net_.optimizer_begin > 0 ? net_.optimizer_begin - 1 : 0;
  if (op == loss_op && p_.leak_mb_per_step > 0) MemAlloc(mem_ts, std::llround(p_.leak_mb_per_step * 1e6), mem_op, true);
  const bool inner = !inner_names_[op].is_none();
  if (inner) {
    e_.Open(host_, inner_names_[op], e_.cats().cpu_op, HostTag::kNone, op_args);
    host_ += rng_.Jitter(kInnerPreUs, 0.25);
  }
  for (size_t k = 0; k < kernels_[op].size(); ++k) {
    if (k) host_ += rng_.Jitter(kBetweenLaunchesUs, 0.3);
    LaunchKernel(kernels_[op][k], op, ext);
  }
  if (inner) {
    host_ += rng_.Jitter(kInnerPostUs, 0.25);
    e_.Close(host_);
  }
  host_ += rng_.Jitter(kOpPostUs, 0.25);
  e_.Close(host_);
}

void DemoSimulation::LaunchKernel(const KernelStatic& k, size_t op, int64_t ext) {
  const uint64_t corr = next_correlation_++;
  const TimeNs launch_start = host_, launch_dur = rng_.Jitter(kLaunchUs, 0.15);
  const bool tf = e_.is_tf();
  SliceId launch;
  if (tf) {
    const Arg args[] = {{k_corr_, CorrelationString(corr)}, {k_group_, Str(step_group_)}};
    launch = e_.MainLeaf(launch_start, launch_start + launch_dur, n_.launch, StringId(), HostTag::kLaunch, args);
  } else {
    const Arg args[] = {{k_ext_, ArgValue::Int(ext)},
                        {k_cbid_, ArgValue::Int(211)},
                        {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))}};
    launch = e_.MainLeaf(launch_start, launch_start + launch_dur, n_.launch, e_.cats().runtime, HostTag::kLaunch, args);
  }
  e_.NoteLaunch(corr, launch);
  host_ = launch_start + launch_dur;

  const TimeNs start = KernelStart(launch_start + static_cast<DurNs>(launch_dur * kLaunchReadyFraction));
  const TimeNs end = start + rng_.Jitter(k.us, 0.04);
  SliceId kernel;
  if (tf) {
    const Arg args[] = {{k_corr_, CorrelationString(corr)},
                        {k_group_, Str(step_group_)},
                        {k_details_, Str(k.details)},
                        {k_tf_op_, Str(tf_ops_[op])}};
    kernel = e_.GpuSlice(DemoStream::kCompute, start, end, k.name, StringId(), GpuKind::kKernel, args, launch_start);
  } else {
    const Arg args[] = {{k_ext_, ArgValue::Int(ext)},        {k_device_, ArgValue::Int(0)},
                        {k_stream_, ArgValue::Int(7)},       {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))},
                        {k_regs_, ArgValue::Int(k.regs)},    {k_smem_, ArgValue::Int(k.smem)},
                        {k_grid_, ArgValue::Json(k.grid)},   {k_block_, ArgValue::Json(k.block)},
                        {k_occ_, ArgValue::Int(k.occupancy)}};
    kernel =
        e_.GpuSlice(DemoStream::kCompute, start, end, k.name, e_.cats().kernel, GpuKind::kKernel, args, launch_start);
  }
  e_.NoteDeviceActivity(corr, kernel);
  gpu_free_ = end;
}

void DemoSimulation::MemAlloc(TimeNs ts, int64_t bytes, StringId op, bool leak) {
  const uint64_t addr = next_addr_;
  next_addr_ += static_cast<uint64_t>((bytes + 511) / 512 * 512);
  mem_allocated_ += bytes;
  mem_reserved_ = std::max(mem_reserved_, (mem_allocated_ + kReserveChunk - 1) / kReserveChunk * kReserveChunk);
  if (e_.InWindow(ts)) mem_peak_ = std::max(mem_peak_, mem_allocated_);
  e_.MemoryEvent(ts, bytes, addr, mem_allocated_, mem_reserved_, op);
  if (!leak) step_allocs_.push_back({addr, bytes});
}

void DemoSimulation::MemFreeStep() {
  for (const auto& [addr, bytes] : step_allocs_) {
    mem_allocated_ -= bytes;
    e_.MemoryEvent(host_, -bytes, addr, mem_allocated_, mem_reserved_, StringId());
  }
  step_allocs_.clear();
}

// loss.item() / tensor.numpy(): a 4-byte D2H copy after everything queued,
// and a blocking wait for it. TensorFlow: Tensor.numpy > cuMemcpyDtoH_v2 (a
// synchronous copy); PyTorch: aten::item > aten::_local_scalar_dense >
// cudaMemcpyAsync + cudaStreamSynchronize.
void DemoSimulation::FetchScalar() {
  const bool tf = e_.is_tf();
  const int64_t ext = next_external_id_++;
  const Arg ext_args[] = {{k_ext_, ArgValue::Int(ext)}};
  const std::span<const Arg> op_args = tf ? std::span<const Arg>() : std::span<const Arg>(ext_args);
  e_.Open(host_, n_.scalar, e_.cats().cpu_op, tf ? HostTag::kNone : HostTag::kSyncWrapper, op_args);
  host_ += rng_.Jitter(kOpPreUs, 0.25);
  if (!tf) {
    e_.Open(host_, n_.scalar_inner, e_.cats().cpu_op, HostTag::kSyncWrapper, op_args);
    host_ += rng_.Jitter(kInnerPreUs, 0.25);
  }
  const uint64_t corr = next_correlation_++;
  const TimeNs call_start = host_;
  const TimeNs ready = call_start + rng_.Jitter(8, 0.2);
  const TimeNs copy_start = std::max(ready, gpu_free_ + rng_.Jitter(kKernelGapUs, 0.4));
  const TimeNs copy_end = copy_start + rng_.Jitter(kScalarCopyUs, 0.2);
  const TimeNs done = copy_end + rng_.Jitter(kSyncWakeUs, 0.3);
  SliceId call, copy;
  if (tf) {
    const Arg args[] = {{k_corr_, CorrelationString(corr)}, {k_group_, Str(step_group_)}};
    call = e_.MainLeaf(call_start, std::max(done, call_start + 10'000), n_.sync, StringId(), HostTag::kSync, args);
    const Arg copy_args[] = {
        {k_corr_, CorrelationString(corr)},
        {k_group_, Str(step_group_)},
        {e_.Intern("memcpy_details"), Str(e_.Intern("kind_src:device kind_dst:pageable size:4 dest:0 async:0"))}};
    copy = e_.GpuSlice(DemoStream::kD2H, copy_start, copy_end, n_.d2h, StringId(), GpuKind::kMemcpyD2H, copy_args);
    host_ = std::max(done, call_start + 10'000);
  } else {
    const TimeNs call_end = call_start + rng_.Jitter(12, 0.2);
    const Arg call_args[] = {{k_ext_, ArgValue::Int(ext)},
                             {k_cbid_, ArgValue::Int(41)},
                             {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))}};
    call = e_.MainLeaf(call_start, call_end, n_.copy_call, e_.cats().runtime, HostTag::kCopyLaunch, call_args);
    const Arg copy_args[] = {{k_ext_, ArgValue::Int(ext)},
                             {k_device_, ArgValue::Int(0)},
                             {k_context_, ArgValue::Int(1)},
                             {k_stream_, ArgValue::Int(7)},
                             {k_corr_, ArgValue::Int(static_cast<int64_t>(corr))},
                             {k_bytes_, ArgValue::Int(4)},
                             {k_bandwidth_, ArgValue::Double(0.002)}};
    copy =
        e_.GpuSlice(DemoStream::kD2H, copy_start, copy_end, n_.d2h, e_.cats().memcpy, GpuKind::kMemcpyD2H, copy_args);
    gpu_free_ = copy_end;  // same stream as the kernels
    const TimeNs sync_start = call_end + rng_.Jitter(kBetweenLaunchesUs, 0.3);
    const TimeNs sync_end = std::max(done, sync_start + 2'000);
    const Arg sync_args[] = {{k_cbid_, ArgValue::Int(131)},
                             {k_corr_, ArgValue::Int(static_cast<int64_t>(next_correlation_++))}};
    e_.MainLeaf(sync_start, sync_end, n_.sync, e_.cats().runtime, HostTag::kSync, sync_args);
    host_ = sync_end + rng_.Jitter(kInnerPostUs, 0.25);
    e_.Close(host_);
  }
  e_.NoteLaunch(corr, call);
  e_.NoteDeviceActivity(corr, copy);
  host_ += rng_.Jitter(kScalarTailUs, 0.3);
  e_.Close(host_);
}

}  // namespace

// ============================================================================
// [SECTION] GenerateDemo
// ============================================================================

DemoIdleCause DemoTruth::DominantGapCause() const {
  size_t best = 0;
  for (size_t i = 1; i < gap_ns_by_cause.size(); ++i) {
    if (gap_ns_by_cause[i] > gap_ns_by_cause[best]) best = i;
  }
  return static_cast<DemoIdleCause>(best);
}

Result<DemoOutput, std::string> GenerateDemo(const DemoOptions& options) {
  const DemoScenarioInfo* info = FindDemoScenario(options.scenario);
  if (!info) {
    return MakeUnexpected("unknown demo scenario \"" + options.scenario + "\"; valid: " + DemoScenarioNameList());
  }
  if (options.steps < 1 || options.scale < 1) return MakeUnexpected(std::string("steps and scale must be >= 1"));
  if (const int64_t total = static_cast<int64_t>(options.steps) * options.scale; total > kDemoMaxSteps) {
    return MakeUnexpected("steps x scale = " + std::to_string(total) + " steps; at most " +
                          std::to_string(kDemoMaxSteps) + " (about 65 million slices)");
  }
  const int marked = options.steps * options.scale;
  DemoEmitter emitter(options.style, options.compute_truth);
  DemoSimulation sim(info->params, options, &emitter);
  sim.Run(marked);
  DemoOutput out;
  out.trace = emitter.Finish();
  if (options.compute_truth) {
    out.truth = ComputeDemoTruth(emitter.records(), sim.steps());
    out.truth.memory_growth_per_step_bytes = std::llround(info->params.leak_mb_per_step * 1e6);
    out.truth.memory_peak_allocated_bytes = sim.memory_peak();
  }
  return out;
}

Result<Trace, std::string> GenerateDemoTrace(const DemoOptions& options) {
  DemoOptions o = options;
  o.compute_truth = false;
  auto out = GenerateDemo(o);
  if (!out) return MakeUnexpected(out.error());
  return std::move(out.value().trace);
}

}  // namespace stepline::demo
