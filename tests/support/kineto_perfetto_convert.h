// Test-only: rewrites a Kineto Chrome JSON trace in the layout PyTorch's
// Perfetto writer gives the same trace (docs/formats.md, "Kineto in
// Perfetto"): a process track per pid, a thread track per thread; a process
// "GPU N" with a thread "stream S" per stream for the pids that hold device
// events; every X event a SLICE_BEGIN / SLICE_END pair with its category and
// its args as typed debug annotations; the correlation id as the flow id of
// both the runtime call and the GPU op; thread-scope instants as INSTANTs.
// Flow events (ac2g, fwdbwd) and counters are not carried over: the layout
// carries launches as flow ids, and the tests compare GPU work, steps and the
// report, not arrows or counter rows. The loader never sees this code.
#pragma once

#include <string>
#include <string_view>

namespace stepline::testing {

struct KinetoPerfettoConversion {
  std::string bytes;  // a Perfetto Trace, uncompressed
  std::string error;  // why the JSON could not be converted ("" on success)
  size_t slices = 0, instants = 0, launch_flow_ids = 0;
};

KinetoPerfettoConversion ConvertKinetoJsonToPerfetto(std::string_view json);

}  // namespace stepline::testing
