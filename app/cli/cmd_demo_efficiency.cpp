// `stepline demo efficiency --out FILE [--steps N] [--device NAME] [--force]`:
// the planted efficiency trace, then the figures `report` must find in it.
#include "app/cli/cmd_demo_efficiency.h"

#include <filesystem>
#include <fstream>
#include <ostream>

#include "app/output/text_format.h"
#include "demo/demo_efficiency.h"

namespace stepline::app {

int RunEfficiencyDemo(const ParsedArgs& a, std::ostream& out, std::ostream& err) {
  demo::EfficiencyDemoOptions o;
  const auto steps = a.IntValue("--steps", 4, 1, 100'000);
  if (!steps) {
    err << "stepline demo: " << steps.error() << '\n';
    return 1;
  }
  o.steps = static_cast<int>(*steps);
  if (auto device = a.Value("--device")) o.device_name = *device;
  const std::optional<std::string> path = a.Value("--out");
  if (!path || path->empty()) {
    err << "stepline demo: --out FILE is required\n";
    return 1;
  }
  if (!a.Has("--force") && std::filesystem::exists(*path)) {
    err << "stepline demo: " << *path << " exists (use --force to replace it)\n";
    return 1;
  }
  const std::string json = demo::EfficiencyDemoJson(o);
  std::ofstream f(*path, std::ios::binary | std::ios::trunc);
  f.write(json.data(), static_cast<std::streamsize>(json.size()));
  if (!f) {
    err << "stepline demo: cannot write " << *path << '\n';
    return 1;
  }
  const demo::EfficiencyDemoTruth t = demo::EfficiencyDemoTruthOf(o);
  out << "wrote " << *path << ": " << o.steps << " steps of 10 ms on " << o.device_name << "\n"
      << "planted per step: " << FormatFixed(t.flops_per_step, 0) << " model FLOPs, " << t.kernels_per_step
      << " kernels, " << FormatDuration(t.launch_ns_per_step) << " of launch calls, collective "
      << FormatDuration(t.collective_ns_per_step) << " of which " << FormatDuration(t.exposed_ns_per_step)
      << " exposed\n";
  return 0;
}

}  // namespace stepline::app
