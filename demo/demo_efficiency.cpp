// The `efficiency` demo trace and its truth (demo_efficiency.h).
#include "demo/demo_efficiency.h"

#include <string_view>

namespace stepline::demo {
namespace {

constexpr int kEffPid = 100, kEffTid = 100, kEffDevice = 0, kEffComputeStream = 7, kEffCommStream = 13;
constexpr int64_t kEffStepUs = 10'000;
constexpr const char* kEffGemm = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_kernel";
constexpr const char* kEffSgemm = "ampere_sgemm_128x64_tn";
constexpr const char* kEffFlash = "flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t>>";
constexpr const char* kEffElementwise =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>>(int)";
constexpr const char* kEffNccl = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

// One kernel of a step: its op, launch and kernel times in us from the step's start.
struct EffKernel {
  const char* op;
  int64_t op_at, op_dur;
  int64_t launch_at, launch_dur;
  const char* kernel;
  int stream;
  int64_t kernel_at, kernel_dur;
};

constexpr EffKernel kEffKernels[] = {
    {"aten::addmm", 150, 800, 200, 10, kEffGemm, kEffComputeStream, 300, 2000},
    {"aten::mm", 1200, 100, 1250, 10, kEffSgemm, kEffComputeStream, 2400, 500},
    {"aten::_scaled_dot_product_flash_attention", 1400, 200, 1450, 10, kEffFlash, kEffComputeStream, 3000, 1000},
    {"aten::add_", 1700, 15, 1700, 8, kEffElementwise, kEffComputeStream, 4100, 4},
    {"aten::add_", 1720, 15, 1720, 8, kEffElementwise, kEffComputeStream, 4110, 4},
    {"aten::add_", 1740, 15, 1740, 8, kEffElementwise, kEffComputeStream, 4120, 4},
    {"aten::add_", 1760, 15, 1760, 8, kEffElementwise, kEffComputeStream, 4130, 4},
    {"record_param_comms", 1790, 30, 1800, 10, kEffNccl, kEffCommStream, 4500, 2000},
    {"aten::mul", 1840, 30, 1850, 10, kEffElementwise, kEffComputeStream, 5000, 500},
};

std::string EffArgs(std::string_view op, const EfficiencyDemoOptions& o) {
  if (op == "aten::mm" && o.recorded_flops) return "\"flops\":2147483648";
  if (!o.shapes) return {};
  if (op == "aten::linear") {
    return "\"Input Dims\":[[64,128,1024],[4096,1024],[4096]],"
           "\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"],\"Concrete Inputs\":[\"\",\"\",\"\"]";
  }
  if (op == "aten::addmm") {
    return "\"Input Dims\":[[4096],[8192,1024],[1024,4096],[],[]],"
           "\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"],"
           "\"Concrete Inputs\":[\"\",\"\",\"\",\"1\",\"1\"]";
  }
  if (op == "aten::_scaled_dot_product_flash_attention") {
    return "\"Input Dims\":[[8,16,512,64],[8,16,512,64],[8,16,512,64],[],[],[],[]],"
           "\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\",\"Scalar\",\"\"],"
           "\"Concrete Inputs\":[\"\",\"\",\"\",\"0.\",\"True\",\"False\",\"\"]";
  }
  if (op == "aten::add_" || op == "aten::mul") {
    return "\"Input Dims\":[[8192,4096],[8192,4096],[]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\"]";
  }
  return {};
}

void EffEvent(std::string* json, const char* cat, std::string_view name, int pid, int tid, int64_t ts, int64_t dur,
              const std::string& args) {
  *json += "{\"ph\":\"X\",\"cat\":\"";
  *json += cat;
  *json += "\",\"name\":\"";
  *json += name;
  *json += "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + std::to_string(ts) +
           ",\"dur\":" + std::to_string(dur) + ",\"args\":{" + args + "}},\n";
}

}  // namespace

std::string EfficiencyDemoJson(const EfficiencyDemoOptions& o) {
  std::string json = "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"" + o.device_name +
                     "\",\"totalGlobalMem\":85018279936}],\n\"traceEvents\":[\n";
  json += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":100,\"tid\":0,\"args\":{\"name\":\"python\"}},\n";
  json += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"GPU 0\"}},\n";
  int64_t correlation = 1;
  for (int s = 0; s < o.steps; ++s) {
    const int64_t t0 = 1'000'000 + s * kEffStepUs;
    EffEvent(&json, "user_annotation", "ProfilerStep#" + std::to_string(s), kEffPid, kEffTid, t0, kEffStepUs, {});
    EffEvent(&json, "cpu_op", "aten::linear", kEffPid, kEffTid, t0 + 100, 1000, EffArgs("aten::linear", o));
    for (const EffKernel& k : kEffKernels) {
      EffEvent(&json, "cpu_op", k.op, kEffPid, kEffTid, t0 + k.op_at, k.op_dur, EffArgs(k.op, o));
      const std::string corr = "\"correlation\":" + std::to_string(correlation);
      EffEvent(&json, "cuda_runtime", "cudaLaunchKernel", kEffPid, kEffTid, t0 + k.launch_at, k.launch_dur, corr);
      EffEvent(&json, "kernel", k.kernel, kEffDevice, k.stream, t0 + k.kernel_at, k.kernel_dur,
               "\"device\":0,\"stream\":" + std::to_string(k.stream) + "," + corr);
      ++correlation;
    }
  }
  json += "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"end\",\"pid\":100,\"tid\":100,\"ts\":" +
          std::to_string(1'000'000 + o.steps * kEffStepUs + 1) + "}\n]}\n";
  return json;
}

EfficiencyDemoTruth EfficiencyDemoTruthOf(const EfficiencyDemoOptions& o) {
  EfficiencyDemoTruth t;
  constexpr int64_t kUsNs = 1000;
  // linear: 2·(64·128)·1024·4096 (its addmm is nested, not counted again);
  // causal flash attention: 2·8·16·512·512·(64+64) / 2.
  const double linear = 2.0 * 64 * 128 * 1024 * 4096;
  const double attention = 2.0 * 8 * 16 * 512 * 512 * (64 + 64) / 2;
  t.flops_per_step = (o.shapes ? linear + attention : 0) + (o.recorded_flops ? 2147483648.0 : 0);
  for (const EffKernel& k : kEffKernels) {
    t.launch_ns_per_step += k.launch_dur * kUsNs;
    const bool collective = k.stream == kEffCommStream;
    t.all_kernel_ns_per_step += k.kernel_dur * kUsNs;
    if (!collective) t.kernel_ns_per_step += k.kernel_dur * kUsNs;
    if (k.kernel == kEffElementwise) t.memory_bound_ns_per_step += k.kernel_dur * kUsNs;
    const std::string_view op = k.op;
    if (o.shapes && (op == "aten::addmm" || op == "aten::_scaled_dot_product_flash_attention")) {
      t.flops_known_kernel_ns_per_step += k.kernel_dur * kUsNs;
    }
    if (o.recorded_flops && op == "aten::mm") t.flops_known_kernel_ns_per_step += k.kernel_dur * kUsNs;
  }
  // Delays (kernel start - launch start), sorted: 100, 1150, 1550, 2370, 2380,
  // 2390, 2400, 2700, 3150 us; nearest rank: p50 the 5th, p90 the 9th.
  t.launch_delay_p50_ns = 2380 * kUsNs;
  t.launch_delay_p90_ns = 3150 * kUsNs;
  t.short_kernel_percent = 100.0 * 4 / 9;  // the four 4 us adds under their 8 us launches
  t.collective_ns_per_step = 2000 * kUsNs;
  t.exposed_ns_per_step = 1500 * kUsNs;  // the 500 us elementwise kernel overlaps it
  t.overlap_percent = 25;
  return t;
}

}  // namespace stepline::demo
