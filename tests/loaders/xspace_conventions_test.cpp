// XSpace naming conventions: planes, lines, memcpy details, step markers.
#include <gtest/gtest.h>

#include "loaders/xspace/xplane_conventions.h"
#include "loaders/xspace/xspace_stats.h"
#include "model/string_pool.h"

namespace stepline::loaders::xspace {
namespace {

TEST(XSpaceConventions, PlaneKindsAndOrdinals) {
  EXPECT_EQ(ClassifyPlane("/host:CPU", 0).kind, PlaneKind::kHostCpu);
  const PlaneClass gpu = ClassifyPlane("/device:GPU:6", 6);
  EXPECT_EQ(gpu.kind, PlaneKind::kGpu);
  EXPECT_EQ(gpu.device_id, 6);
  const PlaneClass sparse = ClassifyPlane("/device:TPU:2 SparseCore 1", 9);
  EXPECT_EQ(sparse.kind, PlaneKind::kTpu);
  EXPECT_EQ(sparse.device_id, 2);
  EXPECT_EQ(ClassifyPlane("/device:GPU:x", 3).device_id, 3);  // falls back to XPlane.id
  EXPECT_EQ(ClassifyPlane("Task Environment", 0).kind, PlaneKind::kTaskEnv);
  EXPECT_EQ(ClassifyPlane("/host:metadata", 0).kind, PlaneKind::kMetadataOnly);
  EXPECT_EQ(ClassifyPlane("/device:CUSTOM:MOSAIC:1", 1).kind, PlaneKind::kOther);
  EXPECT_EQ(ClassifyPlane("/host:CPU [1234]", 1).kind, PlaneKind::kOther);
}

TEST(XSpaceConventions, LineKinds) {
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "Stream #7(MemcpyH2D,Compute)", 7), LineKind::kStream);
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "CUPTI overhead", 99), LineKind::kStream);
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "TensorFlow Name Scope", -559038735), LineKind::kDerived);
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "XLA Modules - from #14", 1234), LineKind::kDerived);
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "Renamed derived row", 3735928559), LineKind::kDerived);  // uint32 id
  EXPECT_EQ(ClassifyLine(PlaneKind::kGpu, "_counters_", INT64_MAX), LineKind::kCounters);
  EXPECT_EQ(ClassifyLine(PlaneKind::kTpu, "XLA Ops", 5), LineKind::kDerived);
  EXPECT_EQ(ClassifyLine(PlaneKind::kHostCpu, "Steps", 5), LineKind::kHost);
  EXPECT_TRUE(IsStepsLineName("Steps - from #3"));
  EXPECT_FALSE(IsStepsLineName("Sparse Core Steps"));
}

TEST(XSpaceConventions, MemcpyDetails) {
  const MemcpyKinds k = ParseMemcpyDetails("kind_src:pageable kind_dst:device size:4 dest:0 async:1");
  EXPECT_EQ(k.src, "pageable");
  EXPECT_EQ(k.dst, "device");
  EXPECT_TRUE(ParseMemcpyDetails("size:4 dest:1 async:1").src.empty());
  DeviceEventFacts f;
  f.name = "MemcpyOther";
  f.has_memcpy_details = true;
  f.memcpy_details = "kind_src:device kind_dst:device size:8";
  EXPECT_EQ(ClassifyDeviceEvent(f), GpuKind::kMemcpyD2D);
  f.memcpy_details = "size:8";
  EXPECT_EQ(ClassifyDeviceEvent(f), GpuKind::kMemcpyOther);
  f = DeviceEventFacts{};
  f.name = "void kernel()";
  f.line_name = "CUPTI overhead";
  EXPECT_EQ(ClassifyDeviceEvent(f), GpuKind::kNone);
}

TEST(XSpaceConventions, HostStepMarkerNames) {
  EXPECT_TRUE(IsHostStepMarkerName("train"));
  EXPECT_TRUE(IsHostStepMarkerName("train_step 4"));
  EXPECT_TRUE(IsHostStepMarkerName("test"));
  EXPECT_TRUE(IsHostStepMarkerName("TraceContext"));
  EXPECT_FALSE(IsHostStepMarkerName("train/loss"));
  EXPECT_FALSE(IsHostStepMarkerName("Train"));
  EXPECT_FALSE(IsHostStepMarkerName("MemoryAllocation"));
}

TEST(XSpaceStats, DecodesEveryValueKindAndLastOneOfWins) {
  // metadata_id 3, int64 -2 (10-byte varint), then ref_value 9: the ref wins.
  std::string bytes = "\x08\x03\x20";
  bytes += std::string(9, '\xff') + "\x01";
  bytes += "\x38\x09";
  RawStat stat;
  WireError error;
  ASSERT_TRUE(DecodeStat(bytes.data(), bytes.size(), 0, &stat, &error));
  EXPECT_EQ(stat.metadata_id, 3);
  EXPECT_EQ(stat.kind, StatValueKind::kRef);
  EXPECT_EQ(stat.bits, 9u);
  const std::string text = "\x08\x01\x2a\x03" "abc";
  ASSERT_TRUE(DecodeStat(text.data(), text.size(), 0, &stat, &error));
  EXPECT_EQ(stat.kind, StatValueKind::kString);
  EXPECT_EQ(stat.text, "abc");
  // Valid text comes with the pool's hash (the builder interns with it).
  EXPECT_TRUE(stat.text_is_utf8);
  EXPECT_EQ(stat.text_hash, stepline::StringPool::Hash("abc"));
  const std::string bad = "\x08\x01\x2a\x09" "abc";  // length past the end
  EXPECT_FALSE(DecodeStat(bad.data(), bad.size(), 40, &stat, &error));
  EXPECT_EQ(error.offset, 43u);
  EXPECT_EQ(ClassifyStatName("correlation_id"), StatRole::kCorrelationId);
  EXPECT_EQ(ClassifyStatName("Memset_details"), StatRole::kMemsetDetails);
  EXPECT_EQ(BytesPlaceholder(12), "<12 bytes>");
}

}  // namespace
}  // namespace stepline::loaders::xspace
