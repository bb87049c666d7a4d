// NormalizeOpName: each rule of op_name_normalize.h on hand-written names
// (real kernel and op names from the shared traces where they exist), the
// names it must leave alone, and idempotence.
#include "model/analysis/op_name_normalize.h"

#include <gtest/gtest.h>

namespace stepline::analysis {
namespace {

TEST(NormalizeOpNameTest, RemovesTemplateArgumentsAndArgumentLists) {
  EXPECT_EQ(NormalizeOpName("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>("
                            "cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)"),
            "void cutlass::Kernel");
  // Nested templates, a lambda's parentheses inside the template, two groups.
  EXPECT_EQ(NormalizeOpName("void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
                            "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
                            "at::detail::Array<char*, 3>)"),
            "void at::native::vectorized_elementwise_kernel");
  EXPECT_EQ(NormalizeOpName("gemm<(bool)1, float>(float*, int)"), "gemm");
  EXPECT_EQ(NormalizeOpName("torch/nn/modules/module.py(1501): _call_impl"), "torch/nn/modules/module.py: _call_impl");
}

TEST(NormalizeOpNameTest, KeepsBracketsThatAreNotTemplatesOrCalls) {
  EXPECT_EQ(NormalizeOpName("Memcpy DtoD (Device -> Device)"), "Memcpy DtoD (Device -> Device)");
  EXPECT_EQ(NormalizeOpName("(anonymous namespace)::softmax_warp_forward"),
            "(anonymous namespace)::softmax_warp_forward");
  EXPECT_EQ(NormalizeOpName("std::ostream& operator<<"), "std::ostream& operator<<");
  EXPECT_EQ(NormalizeOpName("a < b"), "a < b");
  EXPECT_EQ(NormalizeOpName("<lambda>"), "<lambda>");  // removing it would leave nothing
  EXPECT_EQ(NormalizeOpName("f<int"), "f<int");        // unbalanced
  EXPECT_EQ(NormalizeOpName(""), "");
}

TEST(NormalizeOpNameTest, MasksHexAddresses) {
  EXPECT_EQ(NormalizeOpName("<built-in method conv2d of type object at 0x7f3a2c1d9e40>"),
            "<built-in method conv2d of type object at 0x?>");
  EXPECT_EQ(NormalizeOpName("buffer 0xDEADbeef used"), "buffer 0x? used");
  EXPECT_EQ(NormalizeOpName("sm_90x1"), "sm_90x1");  // glued to an identifier: not an address
}

TEST(NormalizeOpNameTest, StripsTrailingNumericSuffixes) {
  EXPECT_EQ(NormalizeOpName("aten::add_12"), "aten::add");
  EXPECT_EQ(NormalizeOpName("ProfilerStep#1009"), "ProfilerStep");
  EXPECT_EQ(NormalizeOpName("fusion.1.2"), "fusion");
  EXPECT_EQ(NormalizeOpName("Memcpy HtoD 4"), "Memcpy HtoD");
  EXPECT_EQ(NormalizeOpName("nccl:all_reduce-3"), "nccl:all_reduce");
  EXPECT_EQ(NormalizeOpName("conv2d"), "conv2d");
  EXPECT_EQ(NormalizeOpName("resnet50"), "resnet50");
  EXPECT_EQ(NormalizeOpName("aten::copy_"), "aten::copy_");  // in-place marker, no digits
  EXPECT_EQ(NormalizeOpName("volta_sgemm_128x32_nn"), "volta_sgemm_128x32_nn");
  EXPECT_EQ(NormalizeOpName("#12"), "#12");  // stripping would leave nothing
}

TEST(NormalizeOpNameTest, CollapsesSpaces) {
  EXPECT_EQ(NormalizeOpName("  a   b  "), "a b");
  EXPECT_EQ(NormalizeOpName("run kernel<T> (x)"), "run kernel (x)");
}

TEST(NormalizeOpNameTest, IsIdempotent) {
  // `f(x)<T>` only reads as a template once `(x)` is gone: one pass is not enough.
  EXPECT_EQ(NormalizeOpName("f(x)<T>"), "f");
  for (const char* name : {"f(x)<T>", "x <a<b>>", "x<<a>", "a_1 _2", "k<0x1f>(p) 0xff_3", "op (1)"}) {
    const std::string once = NormalizeOpName(name);
    EXPECT_EQ(NormalizeOpName(once), once) << name;
  }
}

}  // namespace
}  // namespace stepline::analysis
