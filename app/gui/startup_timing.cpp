// StartupTiming; see startup_timing.h.
#include "app/gui/startup_timing.h"

#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace stepline::app {

double SecondsSinceProcessStart() {
  // Field 22 of /proc/self/stat is the start time in clock ticks since boot;
  // the command name (field 2) may hold spaces, so count from its ')'.
  std::ifstream in("/proc/self/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(stat.substr(close + 2));
  std::string field;
  for (int i = 3; i < 22 && fields >> field; ++i) {
  }
  unsigned long long start_ticks = 0;
  if (!(fields >> start_ticks)) return 0;
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 -
         static_cast<double>(start_ticks) / ticks;
}

StartupTiming::StartupTiming() {
  const char* v = std::getenv("STEPLINE_TIMING");
  enabled_ = v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
  exit_when_done_ = enabled_ && std::strcmp(v, "exit") == 0;
}

bool StartupTiming::AfterFrame(const ViewerSession& session, std::ostream& err) {
  if (!enabled_ || session.comparing()) return false;
  const ui::TimelineData* data = session.state().data.get();
  if (data == nullptr) return false;
  const ViewerSession::LoadTimes& t = session.load_times();
  char line[256];
  if (!timeline_done_ && session.view().timeline().last_quad_count() > 0) {
    timeline_done_ = true;
    std::snprintf(line, sizeof line,
                  "stepline timing: first timeline frame at %.3f s after process start (load %.3f s, indices %.3f s, "
                  "frame %.1f ms)\n",
                  SecondsSinceProcessStart(), t.load_seconds, t.index_seconds,
                  session.view().timeline().last_build_ms());
    err << line << std::flush;
  }
  if (timeline_done_ && !flows_done_ && data->flows() != nullptr) {
    flows_done_ = true;
    std::snprintf(line, sizeof line, "stepline timing: flow arrows ready at %.3f s after process start\n",
                  SecondsSinceProcessStart());
    err << line << std::flush;
  }
  if (timeline_done_ && !analysis_done_ && data->analysis_ready) {
    analysis_done_ = true;
    std::snprintf(line, sizeof line,
                  "stepline timing: analysis panels filled at %.3f s after process start (analysis %.3f s)\n",
                  SecondsSinceProcessStart(), t.analysis_seconds);
    err << line << std::flush;
  }
  return exit_when_done_ && analysis_done_ && flows_done_;
}

}  // namespace stepline::app
