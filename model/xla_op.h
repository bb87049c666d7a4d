// XLA op naming: the HLO instruction name inside an XLA Ops event's text
// ("%fusion.12 = f32[8]{0} fusion(...)" -> "fusion.12"), its group
// ("fusion"), and what the op does on the device (compute, collective, host
// transfer). Loaders classify XLA Ops events with it; the analysis groups by it.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/gpu_kind.h"

namespace stepline {

// The instruction name of an HLO text or name: the part before " = " without
// its leading '%'; the whole (trimmed) text when it has no " = ".
std::string_view HloInstructionName(std::string_view text);
// The instruction name without its numeric suffixes ("fusion.12" -> "fusion",
// "all-reduce.1.2" -> "all-reduce"); the name itself when nothing is left.
std::string_view HloOpGroup(std::string_view instruction_name);
// The opcode of an HLO text: the word before the first '(' after " = "
// ("%fusion.12 = f32[8]{0} fusion(%p)" -> "fusion"); "" without " = ".
std::string_view HloOpcode(std::string_view text);

// What an XLA op does, from its hlo_category stat (may be empty) and name:
// infeed / host receives -> kMemcpyH2D, outfeed / host sends -> kMemcpyD2H,
// all-reduce / all-gather / reduce-scatter / collective-permute / all-to-all /
// collective-broadcast / send / recv (and their -start / -done halves) ->
// kCollective, copy-start / copy-done (an async copy and the wait for it) ->
// kMemcpyOther, anything else kKernel.
GpuKind ClassifyXlaOp(std::string_view name, std::string_view hlo_category);

// Which part of an async pair an XLA collective op is: `all-reduce-start` /
// `all-reduce-done`; `send` / `recv` start what `send-done` / `recv-done` end.
enum class XlaAsyncPart : uint8_t { kWhole = 0, kStart, kDone };
struct XlaCollective {
  std::string_view kind;         // the collective, spelled as NCCL's: "AllReduce", "AllGather", "CollectivePermute", ...
  XlaAsyncPart part = XlaAsyncPart::kWhole;
  std::string_view instruction;  // the HLO instruction name: "all-reduce.3", "all-gather-start.2"
};
// The collective an XLA op is, from its name (HLO text or instruction name;
// the opcode or the name's group says the kind and part) or else its
// hlo_category (kind only). The one table behind ClassifyXlaOp's
// kCollective. False when the op is not a collective.
bool ParseXlaCollective(std::string_view name, std::string_view hlo_category, XlaCollective* out);

}  // namespace stepline
