// DebugAnnotation -> args (trace-formats.md 3.5). Scalars become one typed
// arg each; dicts and arrays are flattened into dotted / indexed keys
// ("args.size", "shape[1]"); legacy JSON text is kept as a kJson arg.
// nested_value and proto payloads are not decoded (counted, skipped).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/perfetto/sequence_state.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::perfetto {

struct AnnotationStats {
  uint64_t unsupported = 0;  // nested_value / proto_value annotations skipped
  uint64_t unsupported_first_offset = UINT64_MAX;
  uint64_t missing_iid = 0;  // name_iid / string_value_iid not interned on the sequence
  uint64_t missing_iid_first_offset = UINT64_MAX;
  uint64_t too_deep = 0;     // nesting past kMaxAnnotationDepth
};

inline constexpr int kMaxAnnotationDepth = 32;

// Appends the args of one DebugAnnotation payload (starting at
// `base_offset`) to `out`. False on malformed bytes (`error_offset`, `error`).
bool AppendAnnotationArgs(std::string_view bytes, uint64_t base_offset, const SequenceState& seq,
                          TraceBuilder* builder, std::vector<Arg>* out, AnnotationStats* stats,
                          uint64_t* error_offset, const char** error);

}  // namespace stepline::loaders::perfetto
