// LoadError formatting: code names and the one-line "PATH: byte N (compressed
// byte M): message" form shown in the UI and printed by trace_dump.
#include "loaders/load_error.h"

namespace stepline::loaders {

std::string_view LoadErrorCodeName(LoadErrorCode code) {
  switch (code) {
    case LoadErrorCode::kIoError: return "io_error";
    case LoadErrorCode::kEmpty: return "empty";
    case LoadErrorCode::kUnknownFormat: return "unknown_format";
    case LoadErrorCode::kUnsupportedFormat: return "unsupported_format";
    case LoadErrorCode::kDecompressFailed: return "decompress_failed";
    case LoadErrorCode::kJsonSyntax: return "json_syntax";
    case LoadErrorCode::kJsonSchema: return "json_schema";
    case LoadErrorCode::kProtobufInvalid: return "protobuf_invalid";
    case LoadErrorCode::kTooLarge: return "too_large";
    case LoadErrorCode::kSqliteInvalid: return "sqlite_invalid";
    case LoadErrorCode::kPickleInvalid: return "pickle_invalid";
    case LoadErrorCode::kCancelled: return "cancelled";
    case LoadErrorCode::kOutOfMemory: return "out_of_memory";
  }
  return "unknown_error";  // only reachable with a value cast from outside the enum
}

std::string LoadError::ToString() const {
  std::string location;
  if (byte_offset != kNoOffset) location = "byte " + std::to_string(byte_offset);
  if (compressed_offset != kNoOffset) {
    std::string compressed = "compressed byte " + std::to_string(compressed_offset);
    location = location.empty() ? compressed : location + " (" + compressed + ")";
  }

  std::string out = path;
  if (!location.empty()) out += out.empty() ? location : ": " + location;
  // An error without a message still says what kind it was.
  std::string_view text = message.empty() ? LoadErrorCodeName(code) : std::string_view(message);
  if (!out.empty()) out += ": ";
  out += text;
  return out;
}

LoadError MakeLoadError(LoadErrorCode code, const std::string& path, uint64_t byte_offset, std::string message) {
  LoadError e;
  e.code = code;
  e.path = path;
  e.byte_offset = byte_offset;
  e.message = std::move(message);
  return e;
}

}  // namespace stepline::loaders
