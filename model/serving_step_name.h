// Serving engines name each scheduler iteration with its batch's shape:
//   SGLang:  "step[EXTEND bs=15 toks=15360]", "step[DECODE bs=64 toks=64 ...]",
//            "step[MIXED ...]", "step[IDLE ...]"
//   vLLM:    "execute_<tokens>_context_<c>(...)_generation_<g>(...)": c
//            requests in prefill, g in decode (c > 0, g = 0: prefill; the
//            reverse: decode; both: mixed).
// The parse is here, in the model, because both the annotation-range loaders
// (NVTX, roctx) and the step analysis read these names.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace stepline {

// What a step computes. kNone: the marker does not say (or an idle batch).
enum class StepPhase : uint8_t { kNone = 0, kPrefill, kDecode, kMixed, kTrain };
inline constexpr int kStepPhaseCount = 5;
std::string_view StepPhaseName(StepPhase p);  // "null", "prefill", "decode", "mixed", "train"

enum class ServingEngine : uint8_t { kNone = 0, kSglang, kVllm };
std::string_view ServingEngineName(ServingEngine e);  // "", "sglang", "vllm"

struct ServingStepName {
  ServingEngine engine = ServingEngine::kNone;
  StepPhase phase = StepPhase::kNone;
  int64_t batch = -1;   // requests in the batch; -1 the name does not say
  int64_t tokens = -1;  // tokens the step processes; -1 the name does not say
};

// The serving step a name describes, or nullopt. Anything after the closing
// ']' of an SGLang name (a loader's appended ordinal) is ignored.
std::optional<ServingStepName> ParseServingStepName(std::string_view name);

}  // namespace stepline
