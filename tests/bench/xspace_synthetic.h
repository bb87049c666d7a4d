// A synthetic XSpace (.xplane.pb) of any size, for load benchmarks and the
// loader's parallel-decode tests. Shaped like a TensorFlow GPU profile (the
// shared GPU-multi-worker trace): a /host:CPU plane whose threads run ops that
// each contain a cudaLaunchKernel, and /device:GPU:N planes with one stream
// line per host thread holding the launched kernels (same correlation_id), plus
// a derived "XLA Ops" line. Stats mix ints, uints, doubles, strings and refs.
//
// The wire bytes are written by hand here (not by libprotobuf, not by the
// loader's WireReader), so a 1 GB file takes seconds and never builds a
// message tree. Deterministic: the same options give the same bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::bench {

struct SyntheticXSpaceOptions {
  uint64_t target_bytes = 32'000'000;  // approximate size of the output
  int gpus = 8;                        // /device:GPU:0 .. gpus-1
  int host_threads = 16;               // host lines; each GPU gets one stream per thread
};

namespace synth_detail {

inline void Varint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}
inline void Tag(std::string* out, uint32_t field, uint32_t wire) { Varint(out, (uint64_t{field} << 3) | wire); }
inline void VarintField(std::string* out, uint32_t field, uint64_t v) {
  Tag(out, field, 0);
  Varint(out, v);
}
inline void BytesField(std::string* out, uint32_t field, std::string_view bytes) {
  Tag(out, field, 2);
  Varint(out, bytes.size());
  out->append(bytes);
}
inline void DoubleField(std::string* out, uint32_t field, double v) {
  Tag(out, field, 1);
  char raw[8];
  __builtin_memcpy(raw, &v, 8);
  out->append(raw, 8);
}

// XStat: 1 metadata_id, 2 double, 3 uint64, 4 int64, 5 str, 7 ref.
inline void IntStat(std::string* ev, uint64_t md, uint32_t value_field, uint64_t v, std::string* scratch) {
  scratch->clear();
  VarintField(scratch, 1, md);
  VarintField(scratch, value_field, v);
  BytesField(ev, 4, *scratch);
}
inline void StrStat(std::string* ev, uint64_t md, std::string_view s, std::string* scratch) {
  scratch->clear();
  VarintField(scratch, 1, md);
  BytesField(scratch, 5, s);
  BytesField(ev, 4, *scratch);
}
inline void DoubleStat(std::string* ev, uint64_t md, double v, std::string* scratch) {
  scratch->clear();
  VarintField(scratch, 1, md);
  DoubleField(scratch, 2, v);
  BytesField(ev, 4, *scratch);
}

// Plane metadata maps: entry {1 key, 2 value{1 id, 2 name, 4 display_name}}.
inline void StatMd(std::string* plane, uint64_t id, std::string_view name) {
  std::string value, entry;
  VarintField(&value, 1, id);
  BytesField(&value, 2, name);
  VarintField(&entry, 1, id);
  BytesField(&entry, 2, value);
  BytesField(plane, 5, entry);
}
inline void EventMd(std::string* plane, uint64_t id, std::string_view name, std::string_view display_name = {}) {
  std::string value, entry;
  VarintField(&value, 1, id);
  BytesField(&value, 2, name);
  if (!display_name.empty()) BytesField(&value, 4, display_name);
  VarintField(&entry, 1, id);
  BytesField(&entry, 2, value);
  BytesField(plane, 4, entry);
}

// Stat metadata ids, the same in every plane.
enum StatId : uint64_t {
  kCorrelationId = 1,
  kGroupId,
  kTfOp,
  kFlops,
  kKernelDetails,
  kContextId,
  kOccupancy,
  kLongName,
  kStatCount
};
inline const char* StatName(uint64_t id) {
  static const char* kNames[] = {"",           "correlation_id", "group_id", "tf_op", "flops", "kernel_details",
                                 "context_id", "occupancy",      "long_name"};
  return kNames[id];
}

constexpr int kOpNames = 3000;      // host op event metadata ids 1..kOpNames
constexpr int kKernelNames = 1500;  // kernel event metadata ids (device planes) 1..kKernelNames
constexpr uint64_t kLaunchMd = kOpNames + 1;
constexpr int64_t kStepPs = 10'000'000;  // 10 us between host events
constexpr int64_t kLineTimestampNs = 1'000'000;

inline std::string OpName(int i) {
  return "replica_" + std::to_string(i % 8) + "/bert_encoder/transformer/layer_" + std::to_string(i % 24) + "/op_" +
         std::to_string(i) + ":" +
         (i % 3 == 0   ? "MatMul"
          : i % 3 == 1 ? "Add"
                       : "Softmax");
}
inline std::string KernelName(int i) {
  return "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_" + std::to_string(64 << (i % 3)) + "x128_32x3_nn_align" +
         std::to_string(i % 8) + "_variant" + std::to_string(i) + ">(cutlass_80_tensorop_s1688gemm::Params)";
}
inline const char* TfOp(uint64_t i) {
  static const char* kOps[] = {"MatMul", "Add", "Softmax", "Cast", "Mul", "Relu", "BiasAdd", "Reshape"};
  return kOps[i % 8];
}

// Host thread t, launch j (0-based): the correlation id and the GPU it runs on.
inline uint64_t Correlation(int t, uint64_t j, uint64_t launches_per_thread) {
  return static_cast<uint64_t>(t) * launches_per_thread + j + 1;
}

}  // namespace synth_detail

// Emits the XSpace as a sequence of top-level fields (each plane's tag,
// length and payload) through `sink`, so a large file streams to disk.
inline void WriteSyntheticXSpace(const SyntheticXSpaceOptions& options,
                                 const std::function<void(std::string_view)>& sink) {
  using namespace synth_detail;
  const int threads = options.host_threads < 1 ? 1 : options.host_threads;
  const int gpus = options.gpus < 1 ? 1 : options.gpus;
  // About 173 bytes per launch over the whole file (host op + launch +
  // kernel + XLA op, with their stats).
  const uint64_t launches_per_thread = std::max<uint64_t>(1, options.target_bytes / 173 / threads);
  std::string scratch, event, line, plane;

  const auto emit_plane = [&](std::string* payload) {
    std::string head;
    Tag(&head, 1, 2);
    Varint(&head, payload->size());
    sink(head);
    sink(*payload);
    payload->clear();
  };
  const auto stat_metadata = [&](std::string* p) {
    for (uint64_t s = 1; s < kStatCount; ++s) StatMd(p, s, StatName(s));
  };
  const auto event_bytes = [&](uint64_t md, int64_t offset_ps, int64_t duration_ps) {
    scratch.clear();
    VarintField(&scratch, 1, md);
    VarintField(&scratch, 2, static_cast<uint64_t>(offset_ps));
    VarintField(&scratch, 3, static_cast<uint64_t>(duration_ps));
    event.assign(scratch);
  };
  const auto end_event = [&]() { BytesField(&line, 4, event); };
  const auto line_header = [&](uint64_t id, std::string_view name) {
    line.clear();
    VarintField(&line, 1, id);
    BytesField(&line, 2, name);
    VarintField(&line, 3, kLineTimestampNs);
  };

  // /host:CPU: per thread, ops (even events) each enclosing one launch.
  VarintField(&plane, 1, 1);
  BytesField(&plane, 2, "/host:CPU");
  stat_metadata(&plane);
  for (int i = 1; i <= kOpNames; ++i) EventMd(&plane, static_cast<uint64_t>(i), OpName(i));
  EventMd(&plane, kLaunchMd, "cudaLaunchKernel");
  std::string stat_scratch;
  for (int t = 0; t < threads; ++t) {
    line_header(static_cast<uint64_t>(1000 + t), "tf_Compute/" + std::to_string(1000 + t));
    for (uint64_t j = 0; j < launches_per_thread; ++j) {
      const int64_t at = static_cast<int64_t>(2 * j) * kStepPs;
      const uint64_t op = 1 + (j * 7 + static_cast<uint64_t>(t)) % kOpNames;
      event_bytes(op, at, kStepPs * 19 / 10);
      IntStat(&event, kGroupId, 4, j / 100, &stat_scratch);
      StrStat(&event, kTfOp, TfOp(op), &stat_scratch);
      IntStat(&event, kFlops, 3, op * 1000 + j % 17, &stat_scratch);
      end_event();
      event_bytes(kLaunchMd, at + kStepPs, kStepPs / 2);
      IntStat(&event, kCorrelationId, 3, Correlation(t, j, launches_per_thread), &stat_scratch);
      IntStat(&event, kGroupId, 4, j / 100, &stat_scratch);
      end_event();
    }
    BytesField(&plane, 3, line);
  }
  emit_plane(&plane);

  // /device:GPU:g: stream line t holds thread t's launches j with j % gpus == g.
  for (int g = 0; g < gpus; ++g) {
    VarintField(&plane, 1, static_cast<uint64_t>(2 + g));
    BytesField(&plane, 2, "/device:GPU:" + std::to_string(g));
    stat_metadata(&plane);
    for (int i = 1; i <= kKernelNames; ++i) EventMd(&plane, static_cast<uint64_t>(i), KernelName(i));
    for (int i = 1; i <= 200; ++i)
      EventMd(&plane, static_cast<uint64_t>(kKernelNames + i), OpName(i), "op_" + std::to_string(i));
    for (int t = 0; t < threads; ++t) {
      line_header(static_cast<uint64_t>(10 + t), "Stream #" + std::to_string(10 + t) + "(Compute)");
      for (uint64_t j = static_cast<uint64_t>(g); j < launches_per_thread; j += static_cast<uint64_t>(gpus)) {
        const int64_t at = static_cast<int64_t>(2 * j + 1) * kStepPs + kStepPs;
        const uint64_t kernel = 1 + (j * 13 + static_cast<uint64_t>(t)) % kKernelNames;
        event_bytes(kernel, at, kStepPs * 3 / 2);
        IntStat(&event, kCorrelationId, 3, Correlation(t, j, launches_per_thread), &stat_scratch);
        IntStat(&event, kGroupId, 4, j / 100, &stat_scratch);
        StrStat(&event, kKernelDetails,
                "regs:" + std::to_string(32 + kernel % 96) + " shm:0 grid:" + std::to_string(kernel % 4096) +
                    ",1,1 block:256,1,1",
                &stat_scratch);
        IntStat(&event, kContextId, 3, 1, &stat_scratch);
        DoubleStat(&event, kOccupancy, 0.25 + static_cast<double>(kernel % 4) / 8, &stat_scratch);
        end_event();
      }
      BytesField(&plane, 3, line);
    }
    // One derived row: an XLA op around each of thread 0's kernels on this GPU.
    line_header(0xDEADBEEF + 2, "XLA Ops");
    for (uint64_t j = static_cast<uint64_t>(g); j < launches_per_thread; j += static_cast<uint64_t>(gpus)) {
      const int64_t at = static_cast<int64_t>(2 * j + 1) * kStepPs + kStepPs;
      event_bytes(static_cast<uint64_t>(kKernelNames + 1 + j % 200), at, kStepPs * 3 / 2);
      IntStat(&event, kGroupId, 4, j / 100, &stat_scratch);
      end_event();
    }
    BytesField(&plane, 3, line);
    emit_plane(&plane);
  }
}

inline std::string MakeSyntheticXSpace(const SyntheticXSpaceOptions& options) {
  std::string out;
  WriteSyntheticXSpace(options, [&](std::string_view bytes) { out.append(bytes); });
  return out;
}

}  // namespace stepline::bench
