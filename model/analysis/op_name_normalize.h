// NormalizeOpName: folds the noise that makes one op appear under many names
// across runs (kernel template arguments, argument lists, addresses, numeric
// suffixes), so the compare ops table gets one row per op.
#pragma once

#include <string>
#include <string_view>

namespace stepline::analysis {

// Returns `name` with, in this order:
//  1. template arguments removed: a `<...>` group (nested ones inside it
//     too) whose `<` follows an identifier character, except after the word
//     `operator`: `void gemm<float, 128>(float*)` -> `void gemm(float*)`.
//     So `a < b`, `operator<<` and `<built-in method ...>` stay.
//  2. argument lists removed: a `(...)` group whose `(` follows an
//     identifier character: `void gemm(float*)` -> `void gemm`,
//     `module.py(1501): _call_impl` -> `module.py: _call_impl`. So a
//     leading `(anonymous namespace)` and `Memcpy HtoD (Pinned -> Device)`
//     stay.
//  3. hex addresses, `0x` + hex digits not glued to a preceding identifier,
//     replaced by `0x?`.
//  4. trailing numeric suffixes removed, repeatedly: digits at the end after
//     one of `_ # . - :` or a space (`aten::add_12` -> `aten::add`,
//     `ProfilerStep#7` -> `ProfilerStep`, `fusion.1.2` -> `fusion`,
//     `Memcpy HtoD 4` -> `Memcpy HtoD`); digits glued to a letter stay
//     (`conv2d`, `resnet50`).
//  5. runs of spaces collapsed to one, leading/trailing spaces trimmed.
// An unbalanced bracket ends nothing: the text from it on stays as it is. A
// step that would leave the name empty is skipped. Idempotent:
// NormalizeOpName(NormalizeOpName(x)) == NormalizeOpName(x).
std::string NormalizeOpName(std::string_view name);

}  // namespace stepline::analysis
