// FLOPs formulas (efficiency_flops.h) and the device peak table
// (efficiency_peaks.h): each formula against a hand count, the table
// against the asset it is built from.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/analysis/efficiency_flops.h"
#include "model/analysis/efficiency_peaks.h"

namespace stepline::analysis {
namespace {

std::vector<InputShape> FlopsTestDims(std::string_view text) {
  std::vector<InputShape> dims;
  EXPECT_TRUE(ParseInputDims(text, &dims)) << text;
  return dims;
}

double FlopsTestEstimate(std::string_view op, std::string_view dims, std::vector<std::string> concrete = {}) {
  return EstimateFlops(op, FlopsTestDims(dims), concrete);
}

TEST(EfficiencyFlopsTest, ParsesInputDimsWithScalarsAndTensorLists) {
  const std::vector<InputShape> d = FlopsTestDims("[[1, 141, 512], [], [[2,3],[4]], [512]]");
  ASSERT_EQ(d.size(), 4u);
  EXPECT_TRUE(d[0].tensor);
  EXPECT_EQ(d[0].dims, (std::vector<int64_t>{1, 141, 512}));
  EXPECT_FALSE(d[1].tensor);  // a scalar
  EXPECT_FALSE(d[2].tensor);  // a list of tensors
  EXPECT_EQ(d[3].dims, (std::vector<int64_t>{512}));
  std::vector<InputShape> bad;
  EXPECT_FALSE(ParseInputDims("[[1,2", &bad));
  EXPECT_FALSE(ParseInputDims("{}", &bad));
}

TEST(EfficiencyFlopsTest, MatmulFamilyIsTwoMKN) {
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::mm", "[[128,256],[256,512]]"), 2.0 * 128 * 256 * 512);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::_scaled_mm", "[[128,256],[256,512],[],[]]"), 2.0 * 128 * 256 * 512);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::addmm", "[[512],[141,512],[512,512],[],[]]"), 2.0 * 141 * 512 * 512);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::bmm", "[[8,64,32],[8,32,16]]"), 2.0 * 8 * 64 * 32 * 16);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::baddbmm", "[[8,64,16],[8,64,32],[8,32,16],[],[]]"), 2.0 * 8 * 64 * 32 * 16);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::linear", "[[1,141,512],[256,512],[256]]"), 2.0 * 141 * 512 * 256);
  // matmul broadcasts the batch dims: [2,1,64,32] x [3,32,16] -> batch 2x3.
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::matmul", "[[2,1,64,32],[3,32,16]]"), 2.0 * 6 * 64 * 32 * 16);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::matmul", "[[64,32],[32]]"), 2.0 * 64 * 32);
  EXPECT_LT(FlopsTestEstimate("aten::mm", "[[128,256],[]]"), 0);   // a shape missing: unknown
  EXPECT_LT(FlopsTestEstimate("aten::add", "[[128,256],[128,256]]"), 0);  // not in the family
}

TEST(EfficiencyFlopsTest, ConvolutionNeedsStridePaddingDilation) {
  // 3x3 conv, stride 2, padding 1: 56x56 -> 28x28; 64 -> 128 channels, batch 8.
  const std::string dims = "[[8,64,56,56],[128,64,3,3],[128],[],[],[],[],[],[]]";
  const double expected = 2.0 * 8 * 128 * 28 * 28 * 64 * 9;
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::convolution", dims, {"", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"}),
                   expected);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::cudnn_convolution", dims, {"", "", "[1, 1]", "[2, 2]", "[1, 1]", "1"}), expected);
  EXPECT_LT(FlopsTestEstimate("aten::convolution", dims), 0);  // no Concrete Inputs: unknown, not a guess
  // Grouped (depthwise): weight [64, 1, 3, 3], groups 64, stride 1, "same".
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::conv2d", "[[8,64,56,56],[64,1,3,3],[],[],[],[],[]]",
                                     {"", "", "", "[1, 1]", "same", "[1, 1]", "64"}),
                   2.0 * 8 * 64 * 56 * 56 * 1 * 9);
  // Backward: grad_output [8,128,28,28]; input and weight gradients, each the forward's FLOPs.
  const std::vector<std::string> bwd = {"", "", "", "[128]", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1",
                                        "[True, True, False]"};
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::convolution_backward", "[[8,128,28,28],[8,64,56,56],[128,64,3,3]]", bwd),
                   2 * expected);
  std::vector<std::string> weight_only = bwd;
  weight_only[10] = "[False, True, True]";
  EXPECT_DOUBLE_EQ(
      FlopsTestEstimate("aten::convolution_backward", "[[8,128,28,28],[8,64,56,56],[128,64,3,3]]", weight_only), expected);
}

TEST(EfficiencyFlopsTest, AttentionCountsTwoMatmulsAndHalvesCausal) {
  const std::string qkv = "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[]]";
  const double full = 2.0 * 2 * 8 * 1024 * 1024 * 128;
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::_scaled_dot_product_flash_attention", qkv, {"", "", "", "0.", "False", "False", ""}),
                   full);
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::_scaled_dot_product_flash_attention", qkv, {"", "", "", "0.", "True", "False", ""}),
                   full / 2);
  EXPECT_LT(FlopsTestEstimate("aten::_scaled_dot_product_flash_attention", qkv), 0);  // causal flag unknown
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::scaled_dot_product_attention", "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[],[]]",
                                     {"", "", "", "", "0.", "False", "", "False"}),
                   full);
  // [B, S, H, D] layout of _flash_attention_forward; is_causal is argument 8.
  std::vector<std::string> c(15, "");
  c[8] = "True";
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::_flash_attention_forward",
                                     "[[2,1024,8,64],[2,1024,8,64],[2,1024,8,64],[],[],[],[],[],[],[],[],[],[],[],[]]", c),
                   full / 2);
  // Backward: grad_out first, then q, k, v; four matmuls, twice the forward.
  std::vector<std::string> b(15, "");
  b[11] = "False";
  EXPECT_DOUBLE_EQ(FlopsTestEstimate("aten::_scaled_dot_product_flash_attention_backward",
                                     "[[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[2,8,1024,64],[],[],[],[],[],[],[],[],[],[],[]]", b),
                   2 * full);
}

TEST(EfficiencyFlopsTest, DtypesAndBounds) {
  EXPECT_EQ(DtypeOfInputType("c10::BFloat16"), "bf16");
  EXPECT_EQ(DtypeOfInputType("c10::Half"), "fp16");
  EXPECT_EQ(DtypeOfInputType("float"), "fp32");
  EXPECT_EQ(DtypeOfInputType("c10::Float8_e4m3fn"), "fp8");
  EXPECT_EQ(DtypeOfInputType("Scalar"), "");
  EXPECT_EQ(BoundOfOpName("aten::addmm"), OpBound::kCompute);
  EXPECT_EQ(BoundOfOpName("aten::layer_norm"), OpBound::kMemory);
  EXPECT_EQ(BoundOfOpName("aten::embedding"), OpBound::kMemory);
  EXPECT_EQ(BoundOfOpName("ProfilerStep#3"), OpBound::kUnknown);
  EXPECT_EQ(BoundOfKernelName("sm90_xmma_gemm_bf16bf16_bf16f32"), OpBound::kCompute);
  EXPECT_EQ(BoundOfKernelName("void at::native::vectorized_elementwise_kernel<4>"), OpBound::kMemory);
  EXPECT_EQ(BoundOfKernelName("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), OpBound::kUnknown);
}

TEST(EfficiencyPeaksTest, EmbeddedTableIsTheAsset) {
  std::ifstream in(std::string(STEPLINE_SOURCE_DIR) + "/assets/device_peaks.tsv", std::ios::binary);
  ASSERT_TRUE(in) << "assets/device_peaks.tsv missing";
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), kDevicePeaksTsv);
  DevicePeakTable table;
  std::string error;
  ASSERT_TRUE(DevicePeakTable::Parse(text.str(), &table, &error)) << error;
  EXPECT_EQ(table.rows().size(), DevicePeakTable::Default().rows().size());
}

TEST(EfficiencyPeaksTest, EveryListedDeviceHasADensePeak) {
  const DevicePeakTable& t = DevicePeakTable::Default();
  for (std::string_view name :
       {"Tesla V100-SXM2-16GB", "Tesla T4", "NVIDIA A10", "NVIDIA A100-SXM4-80GB", "NVIDIA A100-PCIE-40GB", "NVIDIA L4",
        "NVIDIA L40S", "NVIDIA H100 80GB HBM3", "NVIDIA H100 PCIe", "NVIDIA H200", "NVIDIA B200", "NVIDIA GB200",
        "AMD Instinct MI210", "AMD Instinct MI250X", "AMD Instinct MI300X", "AMD Instinct MI325X", "AMD Instinct MI355X",
        "TPU v4", "TPU v5e", "TPU v5p", "TPU v6e"}) {
    const DevicePeakRow* row = t.Find(name, "bf16");
    if (row == nullptr) row = t.Find(name, "fp16");  // V100 and T4 have no bf16
    ASSERT_NE(row, nullptr) << name;
    EXPECT_GT(row->memory_tbps, 0) << name;
  }
  // Specific forms before the bare name; dense, not 2:4 sparse.
  EXPECT_DOUBLE_EQ(t.Find("NVIDIA H100 80GB HBM3", "bf16")->dense_tflops, 989.4);
  EXPECT_DOUBLE_EQ(t.Find("NVIDIA H100 PCIe", "bf16")->dense_tflops, 756);
  EXPECT_DOUBLE_EQ(t.Find("NVIDIA A10", "bf16")->dense_tflops, 125);
  EXPECT_DOUBLE_EQ(t.Find("NVIDIA A100-SXM4-80GB", "bf16")->memory_tbps, 2.039);
  EXPECT_DOUBLE_EQ(t.Find("NVIDIA GB200", "bf16")->dense_tflops, 2500);
  EXPECT_DOUBLE_EQ(t.Find("AMD Instinct MI300X", "fp8")->dense_tflops, 2614.9);
  EXPECT_EQ(t.Find("NVIDIA Imaginary X1", "bf16"), nullptr);
  EXPECT_EQ(t.Find("Tesla T4", "bf16"), nullptr);  // no such figure: MFU unknown
  std::string error;
  DevicePeakTable bad;
  EXPECT_FALSE(DevicePeakTable::Parse("*X*\tbf16\tmany\t1\tsheet\n", &bad, &error));
  EXPECT_NE(error.find("line 1"), std::string::npos);
}

}  // namespace
}  // namespace stepline::analysis
