// The ddp-straggler demo: simulation, truth and Kineto JSON text (see demo_ddp.h).
#include "demo/demo_ddp.h"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace stepline::demo {
namespace {

constexpr TimeNs kBaseNs = 1'000'000'000'000;  // 1000 s: ns stay exact in a double of us
constexpr DurNs kUs = 1'000;
constexpr int kComputeStream = 7, kCommStream = 13;

// SplitMix64 of the inputs: a uniform double in [0, 1).
double Jitter(uint64_t seed, uint64_t a, uint64_t b, uint64_t c, uint64_t salt) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + a * 0xBF58476D1CE4E5B9ull + b * 0x94D049BB133111EBull +
               c * 0x2545F4914F6CDD1Dull + salt;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) / static_cast<double>(uint64_t{1} << 53);
}

DurNs Scaled(DurNs base, double spread, double j) {
  return static_cast<DurNs>(static_cast<double>(base) * (1.0 - spread / 2 + spread * j));
}

constexpr const char* kKernelNames[] = {
    "ampere_fp16_s16816gemm_fp16_256x128_ldg8_f2f_stages_32x3_nn",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::Half>>(int, at::native::CUDAFunctor_add<c10::Half>, at::detail::Array<char*, 3>)",
    "sm80_xmma_gemm_f16f16_f16f32_f16_nt_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel",
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<__half, float, 512, true, 1>(cudnnTensorStruct, __half const*)"};
constexpr const char* kOpNames[] = {"aten::mm", "aten::add", "aten::mm", "aten::cudnn_batch_norm"};

class JsonOut {
 public:
  JsonOut(std::string* out, DurNs skew, int pid, int device) : out_(out), skew_(skew), pid_(pid), device_(device) {}
  void Host(const char* cat, const std::string& name, TimeNs start, TimeNs end, uint64_t correlation = 0) {
    Begin(cat, name, pid_, pid_, start, end);
    if (correlation) Append("\"args\":{\"correlation\":%llu}", static_cast<unsigned long long>(correlation));
    else out_->append("\"args\":{}");
    out_->append("},\n");
  }
  void Kernel(const char* name, int stream, TimeNs start, TimeNs end, uint64_t correlation) {
    Begin("kernel", name, device_, stream, start, end);
    Append("\"args\":{\"device\":%d,\"stream\":%d,\"correlation\":%llu}},\n", device_, stream,
           static_cast<unsigned long long>(correlation));
  }

 private:
  void Begin(const char* cat, const std::string& name, int pid, int tid, TimeNs start, TimeNs end) {
    const TimeNs s = start + skew_;
    Append("{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%lld.%03lld,\"dur\":%lld.%03lld,",
           cat, name.c_str(), pid, tid, static_cast<long long>(s / kUs), static_cast<long long>(s % kUs),
           static_cast<long long>((end - start) / kUs), static_cast<long long>((end - start) % kUs));
  }
  template <typename... T>
  void Append(const char* format, T... args) {
    char buf[512];
    const int n = std::snprintf(buf, sizeof buf, format, args...);
    out_->append(buf, static_cast<size_t>(std::clamp(n, 0, static_cast<int>(sizeof buf) - 1)));
  }
  std::string* out_;
  DurNs skew_;
  int pid_, device_;
};

}  // namespace

std::string CheckDdpDemoOptions(const DdpDemoOptions& o) {
  if (o.ranks < 2 || o.ranks > kDdpMaxRanks) return "--ranks must be 2.." + std::to_string(kDdpMaxRanks);
  if (o.steps < 2 || o.steps > 100'000) return "--steps must be 2..100000";
  if (o.kernels_per_step < 1 || o.kernels_per_step > 100'000) return "--kernels must be 1..100000";
  if (o.straggler >= o.ranks) return "--straggler must be below --ranks";
  if (o.skew_ns < 0 || o.skew_ns > 10'000'000'000) return "--skew-us must be 0..10000000";
  return "";
}

void DdpDemo::Step(int rank, int step, StepTiming* t, std::string* json) const {
  const uint64_t seed = options_.seed, r = static_cast<uint64_t>(rank), s = static_cast<uint64_t>(step);
  const bool straggler = rank == truth_.straggler;
  std::optional<JsonOut> out;
  if (json) out.emplace(json, options_.skew_ns * rank, 1000 + rank, rank % 8);
  uint64_t correlation = (s + 1) * 1'000'000 + 1;
  const TimeNs input_start = t->start + 10 * kUs;
  const TimeNs input_end = input_start + Scaled((straggler ? 30'000 : 2'000) * kUs, 0.1, Jitter(seed, r, s, 0, 1));
  if (out) out->Host("user_annotation", kDdpInputEventName, input_start, input_end);
  TimeNs h = input_end + 20 * kUs, stream_free = 0;
  for (int k = 0; k < options_.kernels_per_step; ++k, h += 15 * kUs, ++correlation) {
    const TimeNs kstart = std::max(h + 15 * kUs, stream_free);
    stream_free = kstart + Scaled(600 * kUs, 0.6, Jitter(seed, r, s, static_cast<uint64_t>(k), 2));
    if (out) {
      const int v = k % 4;
      out->Host("cpu_op", kOpNames[v], h, h + 12 * kUs);
      out->Host("cuda_runtime", "cudaLaunchKernel", h + 3 * kUs, h + 10 * kUs, correlation);
      out->Kernel(kKernelNames[v], kComputeStream, kstart, stream_free, correlation);
    }
  }
  // The gradient all-reduce: its kernel waits for the rank's compute.
  t->arrival = std::max(h + 25 * kUs, stream_free);
  if (t->collective_end <= 0) return;
  if (out) {
    out->Host("cpu_op", "record_param_comms", h, h + 40 * kUs);
    out->Host("user_annotation", "nccl:all_reduce", h + 3 * kUs, h + 37 * kUs);
    out->Host("cuda_runtime", "cudaLaunchKernel", h + 8 * kUs, h + 20 * kUs, correlation);
    out->Kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", kCommStream,
                t->arrival, t->collective_end, correlation);
  }
  ++correlation;
  h += 45 * kUs;
  stream_free = t->collective_end;
  for (int k = 0; k < 2; ++k, h += 15 * kUs, ++correlation) {
    const TimeNs kstart = std::max(h + 15 * kUs, stream_free);
    stream_free = kstart + Scaled(300 * kUs, 0.2, Jitter(seed, r, s, static_cast<uint64_t>(k), 3));
    if (out) {
      out->Host("cpu_op", "aten::_foreach_add_", h, h + 12 * kUs);
      out->Host("cuda_runtime", "cudaLaunchKernel", h + 3 * kUs, h + 10 * kUs, correlation);
      out->Kernel("void at::native::multi_tensor_apply_kernel<at::native::TensorListMetadata<2>>(...)",
                  kComputeStream, kstart, stream_free, correlation);
    }
  }
  const TimeNs sync_end = stream_free + 10 * kUs;
  t->end = sync_end + 40 * kUs;
  if (out) {
    out->Host("cuda_runtime", "cudaStreamSynchronize", h, sync_end);
    out->Host("user_annotation", "ProfilerStep#" + std::to_string(step), t->start, t->end);
  }
}

DdpDemo::DdpDemo(const DdpDemoOptions& options) : options_(options) {
  const int n = options.ranks;
  truth_.straggler = options.straggler >= 0 ? options.straggler : n / 2;
  truth_.ranks.resize(static_cast<size_t>(n));
  timing_.assign(static_cast<size_t>(n), std::vector<StepTiming>(static_cast<size_t>(options.steps)));
  std::vector<TimeNs> start(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) start[static_cast<size_t>(r)] = kBaseNs + r * 13 * kUs;
  DurNs step_sum = 0;
  for (int s = 0; s < options.steps; ++s) {
    std::vector<TimeNs> arrivals;
    for (int r = 0; r < n; ++r) {
      StepTiming& t = timing_[static_cast<size_t>(r)][static_cast<size_t>(s)];
      t.start = start[static_cast<size_t>(r)];
      Step(r, s, &t, nullptr);
      arrivals.push_back(t.arrival);
    }
    const TimeNs last = *std::max_element(arrivals.begin(), arrivals.end());
    std::vector<TimeNs> sorted = arrivals;
    std::sort(sorted.begin(), sorted.end());
    const size_t mid = sorted.size() / 2;
    const TimeNs median = sorted.size() % 2 ? sorted[mid] : sorted[mid - 1] + (sorted[mid] - sorted[mid - 1]) / 2;
    const DurNs transfer = Scaled(2'000 * kUs, 0.2, Jitter(options.seed, 0, static_cast<uint64_t>(s), 0, 4));
    for (int r = 0; r < n; ++r) {
      StepTiming& t = timing_[static_cast<size_t>(r)][static_cast<size_t>(s)];
      t.collective_end = last + transfer + Scaled(8 * kUs, 2.0, Jitter(options.seed, static_cast<uint64_t>(r),
                                                                          static_cast<uint64_t>(s), 0, 5));
      Step(r, s, &t, nullptr);
      start[static_cast<size_t>(r)] = t.end + 5 * kUs;
      DdpRankTruth& rt = truth_.ranks[static_cast<size_t>(r)];
      rt.wait_ns_per_step += last - t.arrival;
      rt.late_ns += t.arrival - median;
      step_sum += t.end - t.start;
    }
  }
  for (int r = 0; r < n; ++r) {
    DdpRankTruth& rt = truth_.ranks[static_cast<size_t>(r)];
    rt.wait_ns_per_step /= options.steps;
    rt.late_ns /= options.steps;
    rt.clock_offset_ns = options.skew_ns * r;
  }
  truth_.step_mean_ns = step_sum / (static_cast<DurNs>(n) * options.steps);
}

std::string DdpDemo::RankJson(int rank) const {
  std::string json;
  json.reserve(static_cast<size_t>(options_.steps) * static_cast<size_t>(options_.kernels_per_step + 8) * 420);
  const int device = rank % 8;
  json += "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"nccl\",\"rank\":" + std::to_string(rank) +
          ",\"world_size\":" + std::to_string(options_.ranks) + "},\"hostname\":\"node" +
          std::to_string(rank / 8) + "\",\n\"deviceProperties\":[{\"id\":" + std::to_string(device) +
          ",\"name\":\"NVIDIA A100-SXM4-80GB\"}],\n\"traceEvents\":[\n";
  const std::string pid = std::to_string(1000 + rank), dev = std::to_string(device);
  json += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"name\":\"python\"}},\n";
  json += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + pid +
          ",\"args\":{\"name\":\"thread " + pid + " (python)\"}},\n";
  json += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + dev + ",\"tid\":0,\"args\":{\"name\":\"GPU " + dev +
          "\"}},\n";
  for (int s = 0; s < options_.steps; ++s) {
    StepTiming t = timing_[static_cast<size_t>(rank)][static_cast<size_t>(s)];
    Step(rank, s, &t, &json);
  }
  json += "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"end\",\"pid\":" + pid + ",\"tid\":" + pid + ",\"ts\":" +
          std::to_string((timing_[static_cast<size_t>(rank)].back().end + options_.skew_ns * rank) / kUs + 1) +
          "}\n]}\n";
  return json;
}

}  // namespace stepline::demo
