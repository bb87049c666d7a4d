// Inflates TracePacket.compressed_packets (deflate; zlib or gzip header,
// auto-detected) and zstd_compressed_packets. The result is more packets,
// each framed as Trace field 1. Only this file sees zlib and zstd here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepline::loaders::perfetto {

enum class PacketCompression : uint8_t { kDeflate, kZstd };

// Largest inflated blob accepted (a corrupt size must not exhaust memory).
inline constexpr uint64_t kMaxInflatedPacketsBytes = uint64_t{1} << 31;

// Appends the inflated bytes to `out`. False with `error` set when the data is
// corrupt, ends early, or inflates past kMaxInflatedPacketsBytes.
bool InflatePackets(std::string_view compressed, PacketCompression kind, std::string* out, std::string* error);

}  // namespace stepline::loaders::perfetto
