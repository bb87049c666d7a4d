// Slice colours: stable per name (the same op has the same colour in every
// trace and every run), or by kind (kernel, memcpy, memset, host op, Python,
// annotation, runtime call).
#pragma once

#include <cstdint>
#include <string_view>

#include "model/trace.h"

namespace stepline::ui {

enum class ColorMode : uint8_t { kByName, kByKind };

uint32_t ColorForName(std::string_view name);  // packed ABGR, opaque, never too dark for black text
uint32_t ColorForSlice(const Trace& trace, SliceId slice, ColorMode mode);

}  // namespace stepline::ui
