// rocprofv3 JSON -> Trace (see rocprof_loader.h): parse the document with
// simdjson's DOM (rocprofv3 files are one object, not an event stream), then
// import each "rocprofiler-sdk-tool" entry.
#include "loaders/rocprof/rocprof_loader.h"

#include <simdjson.h>

#include "loaders/rocprof/rocprof_records.h"

namespace stepline::loaders {
namespace {

// `padded` bytes are readable past the end (simdjson's padding).
Result<Trace, LoadError> Parse(std::string_view bytes, bool padded, const std::string& path, const LoadOptions& options,
                               LoadProgress* progress) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  const simdjson::error_code error = padded ? parser.parse(bytes.data(), bytes.size(), false).get(doc)
                                            : parser.parse(bytes.data(), bytes.size(), true).get(doc);
  if (error == simdjson::CAPACITY || error == simdjson::MEMALLOC) {
    return MakeUnexpected(
        MakeLoadError(LoadErrorCode::kTooLarge, path, LoadError::kNoOffset,
                  std::string("rocprofv3 JSON too large to parse: ") + simdjson::error_message(error)));
  }
  if (error) {
    // A document that stops inside an object, array or string was cut off.
    const bool cut = error == simdjson::INCOMPLETE_ARRAY_OR_OBJECT || error == simdjson::UNCLOSED_STRING ||
                     error == simdjson::TAPE_ERROR;
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kJsonSyntax, path, cut ? bytes.size() : LoadError::kNoOffset,
                                    cut ? "the rocprofv3 JSON ends inside an unclosed object, array or string (" +
                                              std::string(simdjson::error_message(error)) +
                                              "); the file is truncated or damaged"
                                        : "malformed rocprofv3 JSON: " + std::string(simdjson::error_message(error))));
  }
  simdjson::dom::array entries;
  if (doc["rocprofiler-sdk-tool"].get_array().get(entries) != simdjson::SUCCESS) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kJsonSchema, path, 0,
                                    "expected an object whose \"rocprofiler-sdk-tool\" key holds an array of entries"));
  }
  TraceBuilder builder("rocprof-json");
  std::vector<AnnotationRange> markers;
  uint32_t index = 0;
  for (simdjson::dom::element e : entries) {
    simdjson::dom::object entry;
    if (e.get_object().get(entry) != simdjson::SUCCESS) {
      builder.diag().Record(DiagCode::kBadFieldType, Diagnostics::kNoOffset,
                            "a rocprofiler-sdk-tool entry is not an object; skipped");
      continue;
    }
    rocprof::RocprofImporter importer(&builder, options, index++);
    importer.Import(entry);
    auto& ranges = importer.marker_ranges();
    markers.insert(markers.end(), ranges.begin(), ranges.end());
    if (progress && progress->cancel.load()) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kCancelled, path, LoadError::kNoOffset, "load cancelled"));
    }
  }
  AddStepsFromRanges(&builder, std::move(markers), "roctx");
  Trace trace = builder.Finish();
  trace.mutable_info().display_origin_ns = trace.span().start_ns;
  if (progress) progress->bytes_done.store(bytes.size());
  return trace;
}

}  // namespace

Result<Trace, LoadError> LoadRocprofJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                         LoadProgress* progress) {
  if (progress) progress->bytes_total.store(input.bytes.size());
  const bool padded = input.bytes.capacity() >= input.bytes.size() + simdjson::SIMDJSON_PADDING ||
                      ByteBuffer::kPadding >= simdjson::SIMDJSON_PADDING;
  return Parse(input.bytes.view(), padded, path, options, progress);
}

Result<Trace, LoadError> LoadRocprofJsonBytes(std::string_view bytes, const std::string& name,
                                              const LoadOptions& options) {
  return Parse(bytes, false, name, options, nullptr);
}

}  // namespace stepline::loaders
