// Nsight Systems SQLite export -> Trace (see nsys_loader.h). Opens the
// database, checks it is an export, and reads the tables in an order that
// has names ready before events need them.
#include "loaders/nsys/nsys_loader.h"

#include "loaders/nsys/nsys_reader.h"
#include "sqlite/database.h"

namespace stepline::loaders {
namespace {

// `head` is the file's first bytes (at least 100 when it has them), `size` its length.
// `reopen` opens a second connection to the same database, so the host API
// tables are read on another thread while the device tables are built (null:
// everything on this thread).
Result<Trace, LoadError> LoadFromDb(const sqlite::Database& db, std::string_view head, uint64_t size,
                                    const std::string& path, const LoadOptions& options, LoadProgress* progress,
                                    const nsys::NsysReader::Reopen& reopen) {
  TraceBuilder builder("nsys-sqlite");
  nsys::NsysReader reader(db, &builder, options, size);
  reader.set_progress(progress);
  if (progress) reader.set_cancel_flag(&progress->cancel);
  const uint64_t declared = sqlite::DeclaredDatabaseBytes(head);
  const bool short_file = declared > size;
  std::string error;
  if (!reader.ReadSchema(&error)) {
    if (short_file) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kSqliteInvalid, path, size,
                                      "the SQLite file ends here, but its header declares " + std::to_string(declared) +
                                          " bytes: the file is truncated (" + error + ")"));
    }
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kSqliteInvalid, path, 0,
                                    "SQLite cannot read the database schema: " + error +
                                        ". Expected an Nsight Systems export (nsys export --type sqlite)"));
  }
  if (!reader.HasEventTables()) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kUnsupportedFormat, path, 0,
                                    "an SQLite database without any Nsight Systems event table (expected one of " +
                                        reader.EventTableNames() +
                                        "); export the report with `nsys export --type sqlite`"));
  }
  if (short_file) {
    builder.diag().Record(DiagCode::kTruncated, size,
                          "the SQLite file ends at byte " + std::to_string(size) + " but its header declares " +
                              std::to_string(declared) + " bytes; rows on the missing pages are lost");
  }
  // One worker at most: the machine this is built for has two cores, and
  // the runtime table is the other half of a large capture.
  if (options.threads != 1) reader.StartApiCallPrefetch("CUPTI_ACTIVITY_KIND_RUNTIME", true, reopen);
  reader.ReadStrings();
  reader.ReadProcessesAndThreads();
  reader.ReadGpuInfo();
  reader.ReadExportMetadata();
  reader.ReadKernels();
  reader.ReadMemcpys();
  reader.ReadMemsets();
  reader.ReadSynchronization();
  reader.ReadApiCalls("CUPTI_ACTIVITY_KIND_RUNTIME", "cuda_runtime", true);
  reader.ReadApiCalls("CUPTI_ACTIVITY_KIND_DRIVER", "cuda_driver", true);
  reader.ReadApiCalls("OSRT_API", "osrt", false);
  reader.ReadNvtx();
  if (reader.cancelled() || (progress && progress->cancel.load())) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kCancelled, path, LoadError::kNoOffset, "load cancelled"));
  }
  reader.AddNvtxSteps();
  builder.trace().mutable_info().metadata = reader.MetadataArgs();
  Trace trace = builder.Finish();
  trace.mutable_info().display_origin_ns = trace.span().start_ns;
  if (progress) progress->bytes_done.store(size);
  return trace;
}

Result<Trace, LoadError> LoadFromBytes(std::string_view bytes, const std::string& path, const LoadOptions& options,
                                       LoadProgress* progress) {
  auto db = sqlite::Database::OpenBytes(bytes);
  if (!db.ok()) return MakeUnexpected(MakeLoadError(LoadErrorCode::kSqliteInvalid, path, 0, db.error()));
  return LoadFromDb(*db, bytes.substr(0, 100), bytes.size(), path, options, progress,
                    [bytes] { return sqlite::Database::OpenBytes(bytes); });
}

}  // namespace

Result<Trace, LoadError> LoadNsysSqlite(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress) {
  if (progress) progress->bytes_total.store(input.bytes.size());
  return LoadFromBytes(input.bytes.view(), path, options, progress);
}

Result<Trace, LoadError> LoadNsysSqliteBytes(std::string_view bytes, const std::string& name,
                                             const LoadOptions& options) {
  if (!bytes.starts_with(sqlite::kSqliteMagic)) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kUnknownFormat, name, 0,
                                    "not an SQLite database: expected \"SQLite format 3\" followed by a zero byte"));
  }
  return LoadFromBytes(bytes, name, options, nullptr);
}

Result<Trace, LoadError> LoadNsysSqliteFile(const std::string& path, const LoadOptions& options,
                                            LoadProgress* progress) {
  // The header decides whether SQLite should be asked at all, and tells a
  // truncated file from a damaged one.
  auto mapped = ByteBuffer::MapFile(path);
  if (!mapped.ok()) return MakeUnexpected(mapped.error());
  const std::string_view bytes = mapped->view();
  if (!bytes.starts_with(sqlite::kSqliteMagic)) {
    return MakeUnexpected(MakeLoadError(LoadErrorCode::kUnknownFormat, path, 0,
                                    "not an SQLite database: expected \"SQLite format 3\" followed by a zero byte"));
  }
  auto db = sqlite::Database::OpenFile(path);
  if (!db.ok()) return MakeUnexpected(MakeLoadError(LoadErrorCode::kSqliteInvalid, path, 0, db.error()));
  if (progress) progress->bytes_total.store(bytes.size());
  auto loaded = LoadFromDb(*db, bytes.substr(0, 100), bytes.size(), path, options, progress,
                           [path] { return sqlite::Database::OpenFile(path); });
  if (loaded.ok()) {
    TraceInfo& info = loaded->mutable_info();
    info.source_path = path;
    info.input_bytes = info.file_bytes = bytes.size();
  }
  return loaded;
}

}  // namespace stepline::loaders
