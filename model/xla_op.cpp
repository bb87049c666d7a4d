// HLO name parsing and XLA op classification (see xla_op.h). Op and category
// names follow XLA's HloOpcode spellings and XProf's hlo_category values.
#include "model/xla_op.h"

#include "model/ascii_case.h"

namespace stepline {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// XLA's collective opcodes (and the spellings XProf's hlo_category uses
// without hyphens), with the collective each is. "send" / "recv" only as
// whole words or with a suffix ("send-done", "recv.3"), so "sendfoo" fusions
// are not collectives.
struct CollectiveOpcode {
  std::string_view prefix, kind;
  bool word_only;  // must be followed by nothing, '-' or '.'
};
constexpr CollectiveOpcode kCollectiveOpcodes[] = {
    {"all-reduce", "AllReduce", false},
    {"all-gather", "AllGather", false},
    {"reduce-scatter", "ReduceScatter", false},
    {"collective-permute", "CollectivePermute", false},
    {"ragged-all-to-all", "AllToAll", false},
    {"all-to-all", "AllToAll", false},
    {"collective-broadcast", "Broadcast", false},
    {"async-collective", "Collective", false},
    {"allreduce", "AllReduce", false},
    {"allgather", "AllGather", false},
    {"reducescatter", "ReduceScatter", false},
    {"alltoall", "AllToAll", false},
    {"send", "Send", true},
    {"recv", "Recv", true},
};

// The table row `op` starts with; null when none.
const CollectiveOpcode* FindCollectiveOpcode(std::string_view op) {
  for (const CollectiveOpcode& c : kCollectiveOpcodes) {
    if (!StartsWithIgnoringCase(op, c.prefix)) continue;
    const size_t n = c.prefix.size();
    if (c.word_only && op.size() != n && op[n] != '-' && op[n] != '.') continue;
    return &c;
  }
  return nullptr;
}

bool IsCollectiveOp(std::string_view op) { return FindCollectiveOpcode(op) != nullptr; }

}  // namespace

std::string_view HloInstructionName(std::string_view text) {
  std::string_view s = Trim(text);
  const size_t eq = s.find(" = ");
  if (eq != std::string_view::npos) s = Trim(s.substr(0, eq));
  if (!s.empty() && s.front() == '%') s.remove_prefix(1);
  return s;
}

std::string_view HloOpGroup(std::string_view name) {
  std::string_view s = name;
  for (;;) {
    const size_t dot = s.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || !IsDigits(s.substr(dot + 1))) break;
    s = s.substr(0, dot);
  }
  return s.empty() ? name : s;
}

std::string_view HloOpcode(std::string_view text) {
  const size_t eq = text.find(" = ");
  if (eq == std::string_view::npos) return {};
  std::string_view rhs = text.substr(eq + 3);
  const size_t paren = rhs.find('(');
  if (paren == std::string_view::npos) return {};
  std::string_view head = Trim(rhs.substr(0, paren));
  const size_t space = head.rfind(' ');
  return space == std::string_view::npos ? head : head.substr(space + 1);
}

GpuKind ClassifyXlaOp(std::string_view name, std::string_view hlo_category) {
  const std::string_view group = HloOpGroup(HloInstructionName(name));
  std::string_view op = HloOpcode(name);
  if (op.empty()) op = group;
  // XLA's generic async wrapper ("%reduce-scatter-start = ... async-start(...)")
  // names its opcode async-start / async-done: what it waits for is in the
  // instruction's name, tried last.
  for (std::string_view s : {hlo_category, op, group}) {
    if (s.empty()) continue;
    if (StartsWithIgnoringCase(s, "infeed") || ContainsIgnoringCase(s, "recv-from-host") || ContainsIgnoringCase(s, "host-to-device"))
      return GpuKind::kMemcpyH2D;
    if (StartsWithIgnoringCase(s, "outfeed") || ContainsIgnoringCase(s, "send-to-host") || ContainsIgnoringCase(s, "device-to-host"))
      return GpuKind::kMemcpyD2H;
    if (IsCollectiveOp(s)) return GpuKind::kCollective;
    // An async copy's halves (memory-space moves, host offload): copy-done is
    // the wait for the copy, not compute; it once made a TPU run
    // "compute-bound" with copy-done as its costliest op.
    if (StartsWithIgnoringCase(s, "copy-start") || StartsWithIgnoringCase(s, "copy-done")) return GpuKind::kMemcpyOther;
  }
  return GpuKind::kKernel;
}

bool ParseXlaCollective(std::string_view name, std::string_view hlo_category, XlaCollective* out) {
  const std::string_view instruction = HloInstructionName(name);
  std::string_view op = HloOpcode(name);
  if (op.empty()) op = HloOpGroup(instruction);
  if (const CollectiveOpcode* c = FindCollectiveOpcode(op)) {
    const std::string_view rest = op.substr(c->prefix.size());
    XlaAsyncPart part = XlaAsyncPart::kWhole;
    if (StartsWithIgnoringCase(rest, "-start")) {
      part = XlaAsyncPart::kStart;
    } else if (StartsWithIgnoringCase(rest, "-done")) {
      part = XlaAsyncPart::kDone;
    } else if (c->word_only && rest.empty()) {
      part = XlaAsyncPart::kStart;  // send / recv: their -done ends them
    }
    *out = XlaCollective{c->kind, part, instruction};
    return true;
  }
  if (const CollectiveOpcode* c = hlo_category.empty() ? nullptr : FindCollectiveOpcode(hlo_category)) {
    *out = XlaCollective{c->kind, XlaAsyncPart::kWhole, instruction};
    return true;
  }
  return false;
}

}  // namespace stepline
