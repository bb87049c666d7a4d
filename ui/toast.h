// Toast: a short notice ("Saved ... to /path") shown at the bottom right of
// the window that fades out after a few seconds.
#pragma once

#include <string>

namespace stepline::ui {

inline constexpr double kToastHoldS = 3.0;  // fully visible
inline constexpr double kToastFadeS = 1.0;  // then fades to nothing

// Opacity of a toast `age_s` seconds old: 1, then linear to 0.
float ToastAlpha(double age_s);

class Toast {
 public:
  // Shows `notice` when it differs from the last one; call once per frame
  // (ImGui's clock drives the fade). `hidden`: skip drawing this frame.
  void Draw(const std::string& notice, bool hidden);
  bool visible() const { return visible_; }  // still fading: keep redrawing

 private:
  std::string shown_;
  double since_s_ = 0;
  bool visible_ = false;
};

}  // namespace stepline::ui
