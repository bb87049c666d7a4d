#include "model/serving_step_name.h"

#include <cctype>

namespace stepline {
namespace {

// Reads the decimal digits at the start of `s` into *out; false if none (or too many).
bool ReadNumber(std::string_view s, int64_t* out) {
  size_t n = 0;
  int64_t v = 0;
  while (n < s.size() && n < 18 && std::isdigit(static_cast<unsigned char>(s[n]))) v = v * 10 + (s[n++] - '0');
  if (n == 0 || (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n])))) return false;
  *out = v;
  return true;
}

// The number after `key` ("bs=") inside `body`, as a whole word; -1 absent.
int64_t KeyNumber(std::string_view body, std::string_view key) {
  for (size_t at = body.find(key); at != std::string_view::npos; at = body.find(key, at + 1)) {
    if (at > 0 && body[at - 1] != ' ' && body[at - 1] != ',') continue;
    int64_t v = -1;
    if (ReadNumber(body.substr(at + key.size()), &v)) return v;
  }
  return -1;
}

std::optional<ServingStepName> ParseSglang(std::string_view name) {
  if (!name.starts_with("step[")) return std::nullopt;
  const size_t close = name.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view body = name.substr(5, close - 5);
  const std::string_view mode = body.substr(0, body.find(' '));
  ServingStepName s;
  s.engine = ServingEngine::kSglang;
  if (mode == "EXTEND" || mode == "PREFILL") {
    s.phase = StepPhase::kPrefill;
  } else if (mode == "DECODE") {
    s.phase = StepPhase::kDecode;
  } else if (mode == "MIXED") {
    s.phase = StepPhase::kMixed;
  } else if (mode != "IDLE") {
    return std::nullopt;
  }
  s.batch = KeyNumber(body, "bs=");
  s.tokens = KeyNumber(body, "toks=");
  return s;
}

std::string_view SkipDigits(std::string_view s) {
  const size_t end = s.find_first_not_of("0123456789");
  return end == std::string_view::npos ? std::string_view() : s.substr(end);
}

// Skips a balanced "(...)" at the start of `s`, if any.
std::string_view SkipParens(std::string_view s) {
  if (s.empty() || s.front() != '(') return s;
  const size_t close = s.find(')');
  return close == std::string_view::npos ? std::string_view() : s.substr(close + 1);
}

std::optional<ServingStepName> ParseVllm(std::string_view name) {
  constexpr std::string_view kExecute = "execute_", kContext = "_context_", kGeneration = "_generation_";
  if (!name.starts_with(kExecute)) return std::nullopt;
  std::string_view rest = name.substr(kExecute.size());
  int64_t tokens = 0, context = 0, generation = 0;
  if (!ReadNumber(rest, &tokens)) return std::nullopt;
  rest = SkipDigits(rest);
  if (!rest.starts_with(kContext)) return std::nullopt;
  rest.remove_prefix(kContext.size());
  if (!ReadNumber(rest, &context)) return std::nullopt;
  rest = SkipParens(SkipDigits(rest));
  if (!rest.starts_with(kGeneration)) return std::nullopt;
  if (!ReadNumber(rest.substr(kGeneration.size()), &generation)) return std::nullopt;
  ServingStepName s;
  s.engine = ServingEngine::kVllm;
  s.phase = context > 0 && generation > 0 ? StepPhase::kMixed
            : context > 0                 ? StepPhase::kPrefill
            : generation > 0              ? StepPhase::kDecode
                                          : StepPhase::kNone;
  s.batch = context + generation;
  s.tokens = tokens;
  return s;
}

}  // namespace

std::string_view StepPhaseName(StepPhase p) {
  switch (p) {
    case StepPhase::kNone: return "null";
    case StepPhase::kPrefill: return "prefill";
    case StepPhase::kDecode: return "decode";
    case StepPhase::kMixed: return "mixed";
    case StepPhase::kTrain: return "train";
  }
  return "null";
}

std::string_view ServingEngineName(ServingEngine e) {
  switch (e) {
    case ServingEngine::kNone: return "";
    case ServingEngine::kSglang: return "sglang";
    case ServingEngine::kVllm: return "vllm";
  }
  return "";
}

std::optional<ServingStepName> ParseServingStepName(std::string_view name) {
  if (name.size() < 5) return std::nullopt;
  if (name[0] == 's') return ParseSglang(name);
  if (name[0] == 'e') return ParseVllm(name);
  return std::nullopt;
}

}  // namespace stepline
