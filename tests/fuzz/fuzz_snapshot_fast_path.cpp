// libFuzzer target for the memory snapshot reader's fast path
// (loaders/torch_snapshot/pickle_flat_items.cpp): whatever the bytes, reading
// them with the fast path and through the opcode loop alone must agree: both
// fail with the same error, or both load the same instants, times, tracks
// and args. The seeds are fuzz_torch_snapshot's (corpus/torch_snapshot),
// whose small_batched_* seeds reach the fast path from a list's second batch.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "loaders/torch_snapshot/snapshot_loader.h"

namespace {

[[noreturn]] void FastPathFinding(const char* what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what);
  std::abort();
}

bool SameInstants(const stepline::Trace& a, const stepline::Trace& b) {
  const auto& x = a.instants();
  const auto& y = b.instants();
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x.ts_ns()[i] != y.ts_ns()[i] || a.str(x.name()[i]) != b.str(y.name()[i]) ||
        a.str(a.tracks().name(x.track()[i])) != b.str(b.tracks().name(y.track()[i]))) {
      return false;
    }
    const auto sa = x.arg_set()[i], sb = y.arg_set()[i];
    if (a.args().set_end(sa) - a.args().set_begin(sa) != b.args().set_end(sb) - b.args().set_begin(sb)) return false;
    for (uint32_t r = a.args().set_begin(sa), s = b.args().set_begin(sb); r < a.args().set_end(sa); ++r, ++s) {
      const stepline::ArgValue va = a.args().value(r), vb = b.args().value(s);
      if (a.str(a.args().key()[r]) != b.str(b.args().key()[s]) || va.type != vb.type) return false;
      const bool text = va.type == stepline::ArgType::kString || va.type == stepline::ArgType::kJson;
      if (text ? a.str(va.as_string()) != b.str(vb.as_string()) : va.bits != vb.bits) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace stepline::loaders;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto fast = LoadTorchSnapshotBytesForTest(bytes, true, nullptr);
  auto loop = LoadTorchSnapshotBytesForTest(bytes, false, nullptr);
  if (fast.ok() != loop.ok()) FastPathFinding("one way loads and the other fails");
  if (!fast.ok()) {
    if (fast.error().ToString() != loop.error().ToString()) FastPathFinding("the two ways fail differently");
    return 0;
  }
  if (const std::string broken = fast->CheckInvariants(); !broken.empty()) FastPathFinding(broken.c_str());
  // (How many entries each way took as it read may differ: a batch that
  // mixes entries with other values is left in its list by the loop and read
  // from there afterwards, while the fast path takes its entries as it meets
  // them. What they read to may not.)
  if (!SameInstants(*fast, *loop)) FastPathFinding("the two ways read different instants");
  if (fast->diagnostics().total() != loop->diagnostics().total()) FastPathFinding("the two ways say different problems");
  return 0;
}
