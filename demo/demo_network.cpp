// The demo model's ops and kernels; see demo_network.h. Layer names follow
// Keras' ResNet50 ("conv3_block2_2_conv"); kernel names are the cuDNN, Eigen
// and ATen kernels such layers launch on a V100. Costs are chosen so one step
// at batch 64 takes ~600 ms of GPU time (~100 samples/s with the step's other
// overheads), and no ordinary kernel name sums to more than ~70 ms per step,
// so the 11x11 conv's 130 ms forward kernel clearly leads when present.
#include "demo/demo_network.h"

#include <algorithm>
#include <cmath>

namespace stepline::demo {
namespace {

struct NetLayer {
  std::string name;   // Keras layer stem, e.g. "conv3_block2_2"
  int filter = 1;     // 1, 3, 7 or 11
  int stage = 2;      // ResNet stage 1..5, 6 for the head
  double fwd_us = 0;  // forward conv time at batch 64
  bool has_bn = true;
};

// ResNet-50 backbone (53 convs) + ASPP and decoder head (7 convs).
std::vector<NetLayer> BuildLayers(bool output_conv_11x11) {
  std::vector<NetLayer> layers;
  layers.push_back({"conv1", 7, 1, 6'200});
  const int blocks[] = {3, 4, 6, 3};
  for (int stage = 2; stage <= 5; ++stage) {
    const double us_1x1 = 2'060 + 200.0 * (stage - 2), us_3x3 = 2'680 + 200.0 * (stage - 2);
    for (int b = 1; b <= blocks[stage - 2]; ++b) {
      std::string block = "conv" + std::to_string(stage) + "_block" + std::to_string(b) + "_";
      if (b == 1) layers.push_back({block + "0", 1, stage, us_1x1});
      layers.push_back({block + "1", 1, stage, us_1x1});
      layers.push_back({block + "2", 3, stage, us_3x3});
      layers.push_back({block + "3", 1, stage, us_1x1});
    }
  }
  layers.push_back({"aspp_1x1", 1, 6, 2'580});
  for (const char* rate : {"6", "12", "18"}) layers.push_back({std::string("aspp_3x3_r") + rate, 3, 6, 3'500});
  layers.push_back({"aspp_pool", 1, 6, 420});
  layers.push_back({"decoder_1", 3, 6, 3'700});
  if (output_conv_11x11) layers.push_back({"output_conv_11x11", 11, 6, 141'000, false});
  layers.push_back({"logits", 1, 6, 930, false});
  return layers;
}

// --- Kernel names ------------------------------------------------------------

constexpr std::string_view kConv11x11Fwd =
    "implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, false, true>";

std::string_view ConvMain(int filter, int stage, char pass) {  // pass: f(wd), d(grad), w(grad)
  const bool late = stage >= 4;
  switch (filter) {
    case 1:
      if (pass == 'f') return late ? "volta_sgemm_64x64_nn" : "volta_sgemm_128x64_nn";
      if (pass == 'd') return late ? "volta_sgemm_64x64_nt" : "volta_sgemm_128x64_nt";
      return late ? "volta_sgemm_64x32_sliced1x4_tn" : "volta_sgemm_128x64_tn";
    case 3:
      if (pass == 'f') return "volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1";
      if (pass == 'd') return "void cudnn::detail::dgrad_engine<float, 128, 6, 7, 3, 3, 5, false>";
      return "void cudnn::detail::wgrad_alg0_engine<float, 128, 6, 8, 3, 3, 5, false, 512>";
    case 7:
      if (pass == 'f') return "volta_scudnn_128x64_relu_interior_nn_v1";
      if (pass == 'd') return "void cudnn::detail::dgrad2d_alg1_1<float, 0, 6, 7, 5, 4, 5, true, true>";
      return "void cudnn::detail::wgrad_alg1_engine<float, 0, 5, 4, 3, 3, 5, false>";
    default:
      if (pass == 'f') return kConv11x11Fwd;
      if (pass == 'd') return "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>";
      return "void cudnn::detail::wgrad_alg0_engine<float, 512, 6, 5, 3, 3, 3, false, 512>";
  }
}

struct StyleKernels {
  std::string_view to_nhwc, to_nchw, relu, relu_grad, optimizer, loss_fwd_1, loss_fwd_2, loss_bwd, upsample,
      upsample_grad;
};

const StyleKernels& KernelsFor(DemoStyle style) {
  static const StyleKernels tf = {
      "void tensorflow::functor::ShuffleInTensor3Simple<float, 2, 1, 0, false>",
      "void tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned int, 256, 32, 32, false>",
      "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<"
      "Eigen::Tensor<float, 1, 1, long>, 16>, Eigen::TensorCwiseUnaryOp<Eigen::internal::scalar_max_op<float const, "
      "float const, 0>, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16> const> const> const, "
      "Eigen::GpuDevice>, long>",
      "void tensorflow::functor::ReluGradKernel<float>",
      "void tensorflow::functor::ApplyAdamKernel<float>",
      "void tensorflow::functor::RowReduceKernel<cub::TransformInputIterator<float, tensorflow::functor::Exp<float>>>",
      "void tensorflow::functor::SoftmaxCrossEntropyWithLogitsKernel<float>",
      "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<"
      "Eigen::Tensor<float, 1, 1, long>, 16>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_product_op<float, "
      "float>, Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16> const> const> const, Eigen::GpuDevice>, "
      "long>",
      "void tensorflow::functor::ResizeBilinearKernel<float>",
      "void tensorflow::functor::ResizeBilinearGradKernel<float>",
  };
  static const StyleKernels pt = {
      "void nchwToNhwcKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>",
      "void nhwcToNchwKernel<float, float, float, true, false, (cudnnKernelDataType_t)0>",
      "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar"
      "(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}, "
      "at::detail::Array<char*, 2> >",
      "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl"
      "<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >",
      "void at::native::vectorized_elementwise_kernel<4, at::native::AddcdivFunctor<float>, at::detail::Array<char*, "
      "4> >",
      "void at::native::(anonymous namespace)::cunn_SpatialSoftMaxForward<float, float, float, "
      "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>",
      "void at::native::(anonymous namespace)::nll_loss2d_forward_kernel<float, float>",
      "void at::native::(anonymous namespace)::nll_loss2d_backward_kernel<float>",
      "void at::native::(anonymous namespace)::upsample_bilinear2d_out_frame<float, float>",
      "void at::native::(anonymous namespace)::upsample_bilinear2d_backward_out_frame<float, float>",
  };
  return style == DemoStyle::kPyTorch ? pt : tf;
}

constexpr std::string_view kBnFwd1 = "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>";
constexpr std::string_view kBnFwd2 = "void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>";
constexpr std::string_view kBnBwd1 = "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>";
constexpr std::string_view kBnBwd2 = "void cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>";
constexpr std::string_view kSplitK = "void splitKreduce_kernel<float, float, float, float, true, false>";

// Launch geometry roughly proportional to the work, as cuDNN/ATen size it.
DemoKernelSpec Kernel(std::string_view name, double us, int regs, int smem, int block_x = 256) {
  DemoKernelSpec k;
  k.name = name;
  k.base_us = us;
  k.block = {block_x, 1, 1};
  k.grid = {std::max(1, static_cast<int>(std::lround(us * 2.5))), 1, 1};
  k.registers_per_thread = regs;
  k.shared_memory_bytes = smem;
  return k;
}

// --- Ops ---------------------------------------------------------------------

class NetworkBuilder {
 public:
  explicit NetworkBuilder(DemoStyle style) : style_(style), k_(KernelsFor(style)) {}

  void Forward(const NetLayer& l) {
    const bool tf = style_ == DemoStyle::kTensorFlow;
    const std::string tf_prefix = "model/" + l.name;
    Op(tf ? tf_prefix + "_conv/Conv2D" : "aten::conv2d", tf ? "" : "aten::cudnn_convolution",
       {Kernel(k_.to_nhwc, l.fwd_us * 0.04, 32, 0),
        Kernel(ConvMain(l.filter, l.stage, 'f'), l.fwd_us * 0.92, 128, 49152),
        Kernel(k_.to_nchw, l.fwd_us * 0.04, 32, 4224)});
    if (!l.has_bn) return;
    Op(tf ? tf_prefix + "_bn/FusedBatchNormV3" : "aten::batch_norm", tf ? "" : "aten::cudnn_batch_norm",
       {Kernel(kBnFwd1, l.fwd_us * 0.05, 40, 4096, 512), Kernel(kBnFwd2, l.fwd_us * 0.04, 40, 4096, 512)});
    Op(tf ? tf_prefix + "_relu/Relu" : "aten::relu_", "", {Kernel(k_.relu, l.fwd_us * 0.045, 16, 0, 512)});
  }

  void Backward(const NetLayer& l) {
    const bool tf = style_ == DemoStyle::kTensorFlow;
    const std::string tf_prefix = "gradient_tape/model/" + l.name;
    if (l.has_bn) {
      Op(tf ? tf_prefix + "_relu/ReluGrad" : "autograd::engine::evaluate_function: ReluBackward0",
         tf ? "" : "aten::threshold_backward", {Kernel(k_.relu_grad, l.fwd_us * 0.055, 16, 0, 512)});
      Op(tf ? tf_prefix + "_bn/FusedBatchNormGradV3" : "autograd::engine::evaluate_function: CudnnBatchNormBackward0",
         tf ? "" : "aten::cudnn_batch_norm_backward",
         {Kernel(kBnBwd1, l.fwd_us * 0.10, 48, 8192, 512), Kernel(kBnBwd2, l.fwd_us * 0.08, 48, 8192, 512)});
    }
    const double d_us = l.filter == 11 ? 95'000 : l.fwd_us * 1.1;
    const double w_us = l.filter == 11 ? 112'000 : l.fwd_us * 1.25;
    std::vector<DemoKernelSpec> dgrad = {Kernel(k_.to_nhwc, d_us * 0.04, 32, 0),
                                         Kernel(ConvMain(l.filter, l.stage, 'd'), d_us * 0.92, 128, 49152),
                                         Kernel(k_.to_nchw, d_us * 0.04, 32, 4224)};
    std::vector<DemoKernelSpec> wgrad = {
        Kernel(k_.to_nhwc, w_us * 0.04, 32, 0), Kernel(ConvMain(l.filter, l.stage, 'w'), w_us * 0.86, 168, 32768),
        Kernel(kSplitK, w_us * 0.06, 24, 0), Kernel(k_.to_nchw, w_us * 0.04, 32, 4224)};
    if (tf) {
      Op(tf_prefix + "_conv/Conv2D/Conv2DBackpropInput", "", std::move(dgrad));
      Op(tf_prefix + "_conv/Conv2D/Conv2DBackpropFilter", "", std::move(wgrad));
    } else {
      dgrad.insert(dgrad.end(), wgrad.begin(), wgrad.end());
      Op("autograd::engine::evaluate_function: ConvolutionBackward0", "aten::convolution_backward", std::move(dgrad));
    }
  }

  void Loss(bool backward) {
    const bool tf = style_ == DemoStyle::kTensorFlow;
    if (!backward) {
      Op(tf ? "model/upsample_logits/ResizeBilinear" : "aten::upsample_bilinear2d", "",
         {Kernel(k_.upsample, 1'500, 32, 0)});
      Op(tf ? "sparse_categorical_crossentropy/SparseSoftmaxCrossEntropyWithLogits" : "aten::cross_entropy_loss",
         tf ? "" : "aten::nll_loss2d", {Kernel(k_.loss_fwd_1, 1'100, 32, 1024), Kernel(k_.loss_fwd_2, 900, 32, 1024)});
      return;
    }
    Op(tf ? "gradient_tape/sparse_categorical_crossentropy/mul"
          : "autograd::engine::evaluate_function: NllLoss2DBackward0",
       tf ? "" : "aten::nll_loss2d_backward", {Kernel(k_.loss_bwd, 1'000, 32, 0)});
    Op(tf ? "gradient_tape/model/upsample_logits/ResizeBilinearGrad"
          : "autograd::engine::evaluate_function: UpsampleBilinear2DBackward0",
       tf ? "" : "aten::upsample_bilinear2d_backward", {Kernel(k_.upsample_grad, 2'500, 32, 0)});
  }

  // One update per variable (kernel, gamma, beta), independent of the batch.
  void Optimizer(size_t variables) {
    net_.optimizer_begin = net_.ops.size();
    for (size_t v = 0; v < variables; ++v) {
      DemoKernelSpec k = Kernel(k_.optimizer, 18 + 6.0 * static_cast<double>(v % 5), 32, 0);
      k.batch_scaled = false;
      Op(style_ == DemoStyle::kTensorFlow ? "Adam/Adam/update_" + std::to_string(v) + "/ResourceApplyAdam"
                                          : "aten::addcdiv_",
         "", {k});
    }
  }

  DemoNetwork Take() { return std::move(net_); }

 private:
  void Op(std::string name, std::string inner, std::vector<DemoKernelSpec> kernels) {
    for (const DemoKernelSpec& k : kernels) net_.kernel_us_at_64 += k.base_us;
    net_.kernel_count += kernels.size();
    net_.ops.push_back({std::move(name), std::move(inner), std::move(kernels)});
  }

  DemoStyle style_;
  const StyleKernels& k_;
  DemoNetwork net_;
};

}  // namespace

std::string_view DemoOutputConvKernelName() { return kConv11x11Fwd; }

DemoNetwork BuildDemoNetwork(DemoStyle style, bool output_conv_11x11) {
  const std::vector<NetLayer> layers = BuildLayers(output_conv_11x11);
  NetworkBuilder b(style);
  size_t variables = 0;
  for (const NetLayer& l : layers) {
    b.Forward(l);
    variables += l.has_bn ? 3 : 2;  // kernel + gamma/beta, or kernel + bias
  }
  b.Loss(false);
  b.Loss(true);
  for (auto it = layers.rbegin(); it != layers.rend(); ++it) b.Backward(*it);
  b.Optimizer(variables);
  return b.Take();
}

}  // namespace stepline::demo
