// StartupTiming: with STEPLINE_TIMING=1 the window prints, once each, when the
// first frame drew the timeline with events, when the flow arrows could first
// be drawn (their index is built after that frame) and when the analysis
// panels filled, in seconds since the process started (a cached
// open of a 10M-slice trace shows its timeline within 1 s). One stderr line each.
// STEPLINE_TIMING=exit also closes the window once all three are printed, so a
// measurement can run unattended (`xvfb-run ... stepline FILE` in a loop).
#pragma once

#include <ostream>

#include "app/gui/viewer_session.h"

namespace stepline::app {

// Seconds since this process started (the kernel's start time, 10 ms ticks).
double SecondsSinceProcessStart();

class StartupTiming {
 public:
  StartupTiming();  // reads STEPLINE_TIMING
  // After each frame: prints the milestones this frame reached. True when the
  // window should close (STEPLINE_TIMING=exit and all three are printed).
  bool AfterFrame(const ViewerSession& session, std::ostream& err);

 private:
  bool enabled_ = false;
  bool exit_when_done_ = false;
  bool timeline_done_ = false;
  bool flows_done_ = false;
  bool analysis_done_ = false;
};

}  // namespace stepline::app
