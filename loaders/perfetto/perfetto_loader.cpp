// The Perfetto loader: framing, the two packet passes (packet_importer.h),
// then the builder's finish. Progress and cancellation are checked between
// packets.
#include "loaders/perfetto/perfetto_loader.h"

#include "loaders/perfetto/packet_framing.h"
#include "loaders/perfetto/packet_importer.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders {
namespace {

constexpr size_t kProgressEvery = 4096;  // packets between progress / cancel checks

LoadError Cancelled(const std::string& path) {
  return LoadError{LoadErrorCode::kCancelled, path, LoadError::kNoOffset, LoadError::kNoOffset, "load cancelled"};
}

Result<Trace, LoadError> LoadPerfettoImpl(std::string_view bytes, const std::string& path, const LoadOptions& options,
                                  LoadProgress* progress, const DecodedInput* input) {
  auto framing = perfetto::WalkPackets(bytes, 0, path, "Trace", /*tolerate_truncation=*/true);
  if (!framing.ok()) return MakeUnexpected(framing.error());
  if (progress) progress->bytes_total.store(bytes.size());

  TraceBuilder builder("perfetto");
  perfetto::PacketImporter importer(&builder, path, options);
  std::vector<perfetto::PacketRef> packets;
  packets.reserve(framing->packets.size());
  LoadError error;
  for (const perfetto::PacketSpan& span : framing->packets) {
    if (!importer.Prescan(perfetto::PacketRef{span.bytes, span.offset}, &packets, &error)) {
      return MakeUnexpected(std::move(error));
    }
  }
  for (size_t i = 0; i < packets.size(); ++i) {
    if (progress && i % kProgressEvery == 0) {
      if (progress->cancel.load()) return MakeUnexpected(Cancelled(path));
      if (packets[i].blob_offset == perfetto::PacketRef::kTopLevel) progress->bytes_done.store(packets[i].offset);
    }
    if (!importer.Import(packets[i], &error)) return MakeUnexpected(std::move(error));
  }
  importer.Finish();
  if (framing->truncated_at != UINT64_MAX) {
    const uint64_t missing = framing->truncated_declared_end > bytes.size()
                                 ? framing->truncated_declared_end - bytes.size() : 0;
    builder.diag().Record(DiagCode::kTruncated, framing->truncated_at,
                          "the input ends at byte " + std::to_string(bytes.size()) + " inside packet " +
                              std::to_string(framing->packets.size()) + " (tag at byte " +
                              std::to_string(framing->truncated_at) + (missing ? ", " + std::to_string(missing) +
                              " bytes missing" : "") + "); loaded the " + std::to_string(framing->packets.size()) +
                              " packets before the cut, dropped the " +
                              std::to_string(bytes.size() - framing->truncated_at) + " bytes of the cut packet");
  }
  if (framing->other_fields > 0) {
    builder.diag().Add(DiagCode::kUnsupportedFeature, framing->other_fields, Diagnostics::kNoOffset,
                       "top-level fields other than Trace.packet skipped");
  }

  TraceInfo& info = builder.trace().mutable_info();
  info.source_path = path;
  info.input_bytes = bytes.size();
  info.file_bytes = input ? input->file_bytes : bytes.size();
  info.compression = input ? input->compression : "";
  Trace trace = builder.Finish();
  trace.mutable_info().display_origin_ns = trace.span().start_ns;
  if (progress) progress->bytes_done.store(bytes.size());
  return trace;
}

}  // namespace

Result<Trace, LoadError> LoadPerfetto(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                      LoadProgress* progress) {
  return LoadPerfettoImpl(input.bytes.view(), path, options, progress, &input);
}

Result<Trace, LoadError> LoadPerfettoBytes(std::string_view bytes, const std::string& path,
                                           const LoadOptions& options, LoadProgress* progress) {
  return LoadPerfettoImpl(bytes, path, options, progress, nullptr);
}

}  // namespace stepline::loaders
