// Slice colours; see slice_colors.h.
#include "ui/timeline/slice_colors.h"

#include <cmath>

#include "ui/theme.h"

namespace stepline::ui {
namespace {

uint32_t Hsv(float h, float s, float v) {
  const float c = v * s;
  const float hp = std::fmod(h * 6.f, 6.f);
  const float x = c * (1.f - std::fabs(std::fmod(hp, 2.f) - 1.f));
  float r = 0, g = 0, b = 0;
  if (hp < 1) r = c, g = x;
  else if (hp < 2) r = x, g = c;
  else if (hp < 3) g = c, b = x;
  else if (hp < 4) g = x, b = c;
  else if (hp < 5) r = x, b = c;
  else r = c, b = x;
  const float m = v - c;
  auto to8 = [](float f) { return static_cast<uint8_t>(std::lround(std::fmin(1.f, f) * 255.f)); };
  return theme::Rgba(to8(r + m), to8(g + m), to8(b + m));
}

uint32_t Fnv1a(std::string_view s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) h = (h ^ c) * 16777619u;
  return h;
}

}  // namespace

uint32_t ColorForName(std::string_view name) {
  const uint32_t h = Fnv1a(name);
  // Hue from the hash; saturation and value in a band that keeps dark text
  // readable on every colour.
  const float hue = static_cast<float>(h & 0xFFFF) / 65536.f;
  const float sat = 0.35f + static_cast<float>((h >> 16) & 0xFF) / 255.f * 0.25f;
  const float val = 0.78f + static_cast<float>((h >> 24) & 0xFF) / 255.f * 0.17f;
  return Hsv(hue, sat, val);
}

uint32_t ColorForSlice(const Trace& trace, SliceId slice, ColorMode mode) {
  const std::string_view name = trace.str(trace.slices().name()[slice.index()]);
  if (mode == ColorMode::kByName) return ColorForName(name);
  switch (trace.slices().gpu_kind()[slice.index()]) {
    case GpuKind::kKernel: return theme::kKindKernel;
    case GpuKind::kCollective: return theme::kKindCollective;
    case GpuKind::kMemcpyH2D: return theme::kKindMemcpyH2D;
    case GpuKind::kMemcpyD2H: return theme::kKindMemcpyD2H;
    case GpuKind::kMemcpyD2D:
    case GpuKind::kMemcpyOther: return theme::kKindMemcpyOther;
    case GpuKind::kMemset: return theme::kKindMemset;
    case GpuKind::kNone: break;
  }
  const std::string_view cat = trace.str(trace.slices().category()[slice.index()]);
  const TrackKind track_kind = trace.tracks().kind(trace.slices().track()[slice.index()]);
  if (cat == "python_function") return theme::kKindPython;
  if (cat.find("runtime") != std::string_view::npos || cat.find("driver") != std::string_view::npos ||
      name.starts_with("cuda") || name.starts_with("hip") || name.starts_with("cu"))
    return theme::kKindRuntime;
  if (cat.find("annotation") != std::string_view::npos || track_kind == TrackKind::kGpuDerived ||
      track_kind == TrackKind::kGpuStream || name.starts_with("ProfilerStep#"))
    return theme::kKindAnnotation;
  return theme::kKindHostOp;
}

}  // namespace stepline::ui
