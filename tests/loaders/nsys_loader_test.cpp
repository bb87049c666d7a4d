// The Nsight Systems SQLite loader on fixtures the tests build with SQLite:
// names, tracks and kinds of every table, each table missing in turn, old and
// new column names, globalTid decoding, correlation flows (per process), NVTX
// ranges, marks and steps, the file and in-memory entry points, and damaged
// databases (never a crash: an error or a partial load with a diagnostic).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "loaders/load.h"
#include "loaders/nsys/nsys_loader.h"
#include "model/analysis/step_set.h"
#include "tests/loaders/gzip_for_test.h"
#include "tests/loaders/nsys_fixture.h"
#include "tests/support/file_bytes.h"

namespace stepline::loaders {
namespace {

using ::stepline::testing::GlobalTid;
using ::stepline::testing::NsysFixture;

constexpr int64_t kPid = 4242;
constexpr int64_t kTid = 4250;

// One process launching two kernels, a copy and a memset on GPU 0, with a
// stream sync, an OS call, NVTX ranges and a mark. Every table has rows.
void FillStandard(NsysFixture& f) {
  const std::string gtid = std::to_string(GlobalTid(kPid, kTid));
  const std::string gpid = std::to_string(GlobalTid(kPid, 0));
  f.CreateStandardTables();
  f.Exec(
      "INSERT INTO StringIds VALUES (1, 'void gemm<float>(float*)'), (2, 'gemm'), (3, 'cudaLaunchKernel_v7000'),"
      " (4, 'cudaMemcpyAsync_v3020'), (5, 'main-thread'), (6, 'pthread_cond_wait'), (7, 'ncclDevKernel_AllReduce'),"
      " (8, 'cudaMemsetAsync_v3020'), (9, 'cudaStreamSynchronize_v3020'), (10, 'forward');");
  f.Exec("INSERT INTO PROCESSES VALUES (" + gpid + ", 4242, 'python3');");
  f.Exec("INSERT INTO ThreadNames VALUES (5, 20, " + gtid + ");");
  f.Exec("INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100 80GB HBM3', 85000000000, 132, 0);");
  f.Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
      " (1000, 1100, 1, " +
      gtid + ", 11, 3, 0), (2000, 2100, 1, " + gtid +
      ", 12, 3, 0),"
      " (3000, 3050, 1, " +
      gtid + ", 13, 4, 0), (3500, 3550, 1, " + gtid +
      ", 14, 8, 0),"
      " (3600, 9000, 1, " +
      gtid + ", 15, 9, 0);");
  f.Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
      " (1500, 1900, 0, 1, 7, 11, " +
      gpid +
      ", 1, 2, NULL, 64, 128, 2, 1, 256, 1, 1, 1024, 2048),"
      " (2500, 2800, 0, 1, 13, 12, " +
      gpid + ", 7, 7, NULL, 32, 8, 1, 1, 512, 1, 1, 0, 0);");
  f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (3100, 3300, 0, 1, 7, 13, " + gpid + ", 4096, 1, 0, 2);");
  f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (3560, 3580, 0, 1, 7, 14, " + gpid + ", 0, 512, 2);");
  f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (3600, 9000, 0, 1, 7, 15, " + gpid + ", 3);");
  f.Exec("INSERT INTO OSRT_API VALUES (9100, 12000, 1, " + gtid + ", 6);");
  f.Exec(
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (900, 3400, 59, 'train_step', " +
      gtid + ", 0), (12100, 14000, 59, 'train_step', " + gtid +
      ", 0),"
      " (14100, 16000, 59, 'train_step', " +
      gtid + ", 0), (950, 1200, 59, NULL, " + gtid +
      ", 0),"
      " (1000, NULL, 34, 'checkpoint', " +
      gtid + ", 0);");
  f.Exec("UPDATE NVTX_EVENTS SET textId = 10 WHERE text IS NULL AND eventType = 59;");
}

Trace MustLoadNsys(const std::string& bytes, LoadOptions options = {}) {
  auto r = LoadNsysSqliteBytes(bytes, "fixture.sqlite", options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  if (!r.ok()) return Trace();
  EXPECT_EQ(r->CheckInvariants(), "");
  return std::move(r).value();
}

std::map<GpuKind, int> CountByKind(const Trace& t) {
  std::map<GpuKind, int> n;
  for (size_t i = 0; i < t.slices().size(); ++i) ++n[t.slices().gpu_kind()[i]];
  return n;
}

int CountNsysNamed(const Trace& t, std::string_view name) {
  int n = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) n += t.str(t.slices().name()[i]) == name;
  return n;
}

SliceId NsysSlice(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i)
    if (t.str(t.slices().name()[i]) == name) return SliceId(static_cast<uint32_t>(i));
  return SliceId::None();
}

int LaunchFlows(const Trace& t) {
  int n = 0;
  for (FlowKind k : t.flows().kind()) n += k == FlowKind::kLaunch;
  return n;
}

TEST(NsysLoaderTest, StandardExportBecomesDevicesStreamsAndHostThreads) {
  NsysFixture f;
  FillStandard(f);
  const Trace t = MustLoadNsys(f.Bytes());
  EXPECT_EQ(t.info().format, "nsys-sqlite");
  auto kinds = CountByKind(t);
  EXPECT_EQ(kinds[GpuKind::kKernel], 1);
  EXPECT_EQ(kinds[GpuKind::kCollective], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyH2D], 1);
  EXPECT_EQ(kinds[GpuKind::kMemset], 1);
  // Kernel names come from demangledName through StringIds.
  const SliceId gemm = NsysSlice(t, "void gemm<float>(float*)");
  ASSERT_FALSE(gemm.is_none());
  const TrackId stream = t.slices().track()[gemm.index()];
  EXPECT_EQ(t.tracks().kind(stream), TrackKind::kGpuStream);
  EXPECT_EQ(t.tracks().device_id(stream), 0);
  EXPECT_EQ(t.str(t.tracks().name(stream)), "Stream 7");
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(stream))), "GPU 0 (NVIDIA H100 80GB HBM3)");
  EXPECT_EQ(t.slices().dur_ns()[gemm.index()], 400);
  // Copies and memsets are named as Kineto names them.
  EXPECT_EQ(CountNsysNamed(t, "Memcpy HtoD (Pageable -> Device)"), 1);
  EXPECT_EQ(CountNsysNamed(t, "Memset (Device)"), 1);
  // The sync record sits on its own row of the stream, not a GPU activity.
  const SliceId sync = NsysSlice(t, "Stream sync");
  ASSERT_FALSE(sync.is_none());
  EXPECT_EQ(t.str(t.tracks().name(t.slices().track()[sync.index()])), "Stream 7 (sync)");
  EXPECT_EQ(t.slices().gpu_kind()[sync.index()], GpuKind::kNone);
  // Host calls on the named thread of the named process.
  const SliceId launch = NsysSlice(t, "cudaLaunchKernel");
  ASSERT_FALSE(launch.is_none());
  const TrackId host = t.slices().track()[launch.index()];
  EXPECT_EQ(t.tracks().kind(host), TrackKind::kHostThread);
  EXPECT_EQ(t.str(t.tracks().name(host)), "main-thread");
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(host))), "python3");
  EXPECT_EQ(CountNsysNamed(t, "pthread_cond_wait"), 1);
  // CUPTI's ABI suffix is dropped, as Kineto names the calls.
  EXPECT_EQ(CountNsysNamed(t, "cudaStreamSynchronize"), 1);
  EXPECT_EQ(CountNsysNamed(t, "cudaMemcpyAsync"), 1);
  // Kernel args read like Kineto's, so kernel stats find them.
  ArgValue v;
  const ArgSetId args = t.slices().arg_set()[gemm.index()];
  ASSERT_TRUE(t.args().Find(args, t.strings().Find("grid"), &v));
  EXPECT_EQ(t.str(v.as_string()), "[128, 2, 1]");
  ASSERT_TRUE(t.args().Find(args, t.strings().Find("shared memory"), &v));
  EXPECT_EQ(v.as_int(), 3072);
  ASSERT_TRUE(t.args().Find(args, t.strings().Find("registers per thread"), &v));
  EXPECT_EQ(v.as_int(), 64);
}

TEST(NsysLoaderTest, GlobalTidDecodesToPidAndTid) {
  NsysFixture f;
  FillStandard(f);
  const Trace t = MustLoadNsys(f.Bytes());
  const TrackId host = t.slices().track()[NsysSlice(t, "cudaLaunchKernel").index()];
  EXPECT_EQ(t.tracks().tid(host), kTid);
  EXPECT_EQ(t.processes().pid(t.tracks().process(host)), kPid);
}

TEST(NsysLoaderTest, LaunchesLinkToTheirGpuWorkByCorrelation) {
  NsysFixture f;
  FillStandard(f);
  const Trace t = MustLoadNsys(f.Bytes());
  // Two kernels, the copy and the memset each have a launching call.
  EXPECT_EQ(LaunchFlows(t), 4);
  const SliceId gemm = NsysSlice(t, "void gemm<float>(float*)");
  for (size_t i = 0; i < t.flows().size(); ++i) {
    if (t.flows().to()[i] != gemm) continue;
    EXPECT_EQ(t.slices().start_ns()[t.flows().from()[i].index()], 1000);
  }
}

TEST(NsysLoaderTest, CorrelationIdsArePerProcess) {
  // Two processes (one per GPU, as torchrun runs them) both count correlation
  // ids from 1; each kernel must link to its own process's launch.
  NsysFixture f;
  f.CreateStandardTables();
  f.Exec("INSERT INTO StringIds VALUES (1, 'k'), (2, 'cudaLaunchKernel');");
  for (int p : {100, 200}) {
    const std::string gtid = std::to_string(GlobalTid(p, p + 1));
    const std::string gpid = std::to_string(GlobalTid(p, 0));
    const std::string dev = std::to_string(p / 100 - 1);
    f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + std::to_string(p * 10) + ", " +
           std::to_string(p * 10 + 5) + ", 1, " + gtid + ", 1, 2, 0);");
    f.Exec(
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, globalPid,"
        " demangledName) VALUES (" +
        std::to_string(p * 10 + 10) + ", " + std::to_string(p * 10 + 20) + ", " + dev + ", 7, 1, " + gpid + ", 1);");
  }
  const Trace t = MustLoadNsys(f.Bytes());
  ASSERT_EQ(LaunchFlows(t), 2);
  for (size_t i = 0; i < t.flows().size(); ++i) {
    const TrackId from = t.slices().track()[t.flows().from()[i].index()];
    const TrackId to = t.slices().track()[t.flows().to()[i].index()];
    const int64_t host_pid = t.processes().pid(t.tracks().process(from));
    EXPECT_EQ(t.tracks().device_id(to), host_pid / 100 - 1) << "kernel linked to the other process's launch";
  }
}

// Every table can be absent: the rest still loads.
TEST(NsysLoaderTest, EachTableMissingInTurn) {
  const char* tables[] = {"StringIds",
                          "PROCESSES",
                          "ThreadNames",
                          "TARGET_INFO_GPU",
                          "CUPTI_ACTIVITY_KIND_KERNEL",
                          "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET",
                          "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                          "CUPTI_ACTIVITY_KIND_RUNTIME",
                          "OSRT_API",
                          "NVTX_EVENTS"};
  NsysFixture full;
  FillStandard(full);
  const Trace all = MustLoadNsys(full.Bytes());
  for (const char* dropped : tables) {
    SCOPED_TRACE(dropped);
    NsysFixture f;
    FillStandard(f);
    f.Exec(std::string("DROP TABLE ") + dropped);
    const Trace t = MustLoadNsys(f.Bytes());
    const std::string d = dropped;
    auto kinds = CountByKind(t);
    EXPECT_EQ(kinds[GpuKind::kKernel] + kinds[GpuKind::kCollective], d == "CUPTI_ACTIVITY_KIND_KERNEL" ? 0 : 2);
    EXPECT_EQ(kinds[GpuKind::kMemcpyH2D], d == "CUPTI_ACTIVITY_KIND_MEMCPY" ? 0 : 1);
    EXPECT_EQ(kinds[GpuKind::kMemset], d == "CUPTI_ACTIVITY_KIND_MEMSET" ? 0 : 1);
    EXPECT_EQ(CountNsysNamed(t, "Stream sync"), d == "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" ? 0 : 1);
    EXPECT_EQ(CountNsysNamed(t, "train_step"), d == "NVTX_EVENTS" ? 0 : 3);
    EXPECT_EQ(t.instants().size(), d == "NVTX_EVENTS" ? 0u : 1u);
    if (d == "StringIds") {
      // Without the string table, names by id are unknown but the events stay.
      EXPECT_EQ(t.slices().size(), all.slices().size());
    } else if (d == "CUPTI_ACTIVITY_KIND_RUNTIME") {
      EXPECT_EQ(LaunchFlows(t), 0);
    } else if (d == "ThreadNames") {
      const TrackId host = t.slices().track()[NsysSlice(t, "cudaLaunchKernel").index()];
      EXPECT_EQ(t.str(t.tracks().name(host)), "Thread " + std::to_string(kTid));
    } else if (d == "TARGET_INFO_GPU") {
      const SliceId k = NsysSlice(t, "void gemm<float>(float*)");
      EXPECT_EQ(t.str(t.processes().name(t.tracks().process(t.slices().track()[k.index()]))), "GPU 0");
    }
  }
}

TEST(NsysLoaderTest, NoEventTableIsAClearError) {
  NsysFixture f;
  f.Exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT); CREATE TABLE other (x INTEGER);");
  auto r = LoadNsysSqliteBytes(f.Bytes(), "plain.sqlite");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kUnsupportedFormat);
  EXPECT_NE(r.error().message.find("without any Nsight Systems event table"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos);
}

// Older exports: no demangledName (shortName only), names stored as text,
// `correlation`/`device`/`stream` spellings, no globalPid.
TEST(NsysLoaderTest, OlderColumnNamesAreRead) {
  NsysFixture f;
  const std::string gtid = std::to_string(GlobalTid(7, 8));
  f.Exec(
      "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
      "INSERT INTO StringIds VALUES (1, 'short_kernel');"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, device INTEGER, stream INTEGER,"
      " correlation INTEGER, shortName INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 150, 3, 9, 5, 1);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlation INTEGER,"
      " name TEXT);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (50, 60, " +
      gtid +
      ", 5, 'cudaLaunch');"
      "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER);"
      "INSERT INTO NVTX_EVENTS VALUES (40, 200, 59, 'outer', " +
      gtid + ");");
  const Trace t = MustLoadNsys(f.Bytes());
  const SliceId k = NsysSlice(t, "short_kernel");
  ASSERT_FALSE(k.is_none());
  EXPECT_EQ(t.tracks().device_id(t.slices().track()[k.index()]), 3);
  EXPECT_EQ(t.str(t.tracks().name(t.slices().track()[k.index()])), "Stream 9");
  EXPECT_EQ(CountNsysNamed(t, "cudaLaunch"), 1);
  EXPECT_EQ(CountNsysNamed(t, "outer"), 1);
  // No globalPid: the kernel's process is unknown (0), and so is the launch's
  // pairing across processes; within "process 0" nothing links.
  EXPECT_EQ(t.diagnostics().count(DiagCode::kMissingField), 0u);
}

TEST(NsysLoaderTest, CopyKindsAndMemoryKindsNameTheCopy) {
  NsysFixture f;
  f.CreateStandardTables();
  f.Exec(
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, streamId, copyKind, srcKind, dstKind) VALUES"
      " (0, 10, 0, 1, 1, 1, 2), (20, 30, 0, 1, 2, 2, 0), (40, 50, 0, 1, 8, 2, 2), (60, 70, 0, 1, 10, 2, 2),"
      " (80, 90, 0, 1, 11, 4, 4);");
  const Trace t = MustLoadNsys(f.Bytes());
  auto kinds = CountByKind(t);
  EXPECT_EQ(kinds[GpuKind::kMemcpyH2D], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyD2H], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyD2D], 1);
  EXPECT_EQ(kinds[GpuKind::kMemcpyOther], 2);
  EXPECT_EQ(CountNsysNamed(t, "Memcpy HtoD (Pinned -> Device)"), 1);
  EXPECT_EQ(CountNsysNamed(t, "Memcpy DtoH (Device -> Pageable)"), 1);
  EXPECT_EQ(CountNsysNamed(t, "Memcpy PtoP (Device -> Device)"), 1);
  EXPECT_EQ(CountNsysNamed(t, "Memcpy Unknown (Managed -> Managed)"), 1);
}

TEST(NsysLoaderTest, NvtxRangesMarksDomainsAndSteps) {
  NsysFixture f;
  FillStandard(f);
  f.Exec(
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (0, NULL, 75, 'megatron', NULL, 3), (16100, 16200, 59, 'layer', " +
      std::to_string(GlobalTid(kPid, kTid)) + ", 3);");
  const Trace t = MustLoadNsys(f.Bytes());
  // textId resolves through StringIds; the domain becomes the category.
  EXPECT_EQ(CountNsysNamed(t, "forward"), 1);
  const SliceId layer = NsysSlice(t, "layer");
  ASSERT_FALSE(layer.is_none());
  EXPECT_EQ(t.str(t.slices().category()[layer.index()]), "megatron");
  EXPECT_EQ(t.str(t.slices().category()[NsysSlice(t, "forward").index()]), "nvtx");
  ASSERT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.str(t.instants().name()[0]), "checkpoint");
  // The three top-level train_step ranges are the steps, from NVTX.
  const analysis::StepSet steps = analysis::ComputeSteps(t);
  EXPECT_EQ(steps.source, analysis::StepSource::kNvtx);
  EXPECT_EQ(analysis::StepSourceName(steps.source), "nvtx");
  ASSERT_EQ(steps.steps.size(), 3u);
  EXPECT_EQ(steps.steps[0].start_ns, 900);
  EXPECT_EQ(steps.steps[0].dur_ns, 2500);
  EXPECT_EQ(steps.steps[1].name, "train_step 1");
}

TEST(NsysLoaderTest, EmitNvtxOpRangesAreNotSteps) {
  // PyTorch emit_nvtx names every op "aten::mul, op_id = N": numbered, but not a step.
  NsysFixture f;
  f.CreateStandardTables();
  const std::string gtid = std::to_string(GlobalTid(1, 2));
  for (int i = 0; i < 5; ++i) {
    f.Exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (" + std::to_string(i * 100) +
           ", " + std::to_string(i * 100 + 50) + ", 59, 'aten::mul, op_id = " + std::to_string(i) + "', " + gtid +
           ");");
  }
  const Trace t = MustLoadNsys(f.Bytes());
  EXPECT_NE(analysis::ComputeSteps(t).source, analysis::StepSource::kNvtx);
  // A numbered identifier is a step when nothing better exists.
  NsysFixture g;
  g.CreateStandardTables();
  for (int i = 0; i < 3; ++i) {
    g.Exec("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES (" + std::to_string(i * 100) +
           ", " + std::to_string(i * 100 + 50) + ", 59, 'epoch0 batch " + std::to_string(i) + "', " + gtid + ");");
  }
  const Trace u = MustLoadNsys(g.Bytes());
  const analysis::StepSet steps = analysis::ComputeSteps(u);
  EXPECT_EQ(steps.source, analysis::StepSource::kNvtx);
  EXPECT_EQ(steps.steps.size(), 3u);
}

TEST(NsysLoaderTest, WithoutArgsTheEventsStay) {
  NsysFixture f;
  FillStandard(f);
  LoadOptions options;
  options.keep_args = false;
  const Trace t = MustLoadNsys(f.Bytes(), options);
  for (size_t i = 0; i < t.slices().size(); ++i) EXPECT_TRUE(t.slices().arg_set()[i].is_none());
  EXPECT_EQ(LaunchFlows(t), 4);
}

// The runtime table read on a worker thread (the default) and inline give
// the same trace.
TEST(NsysLoaderTest, OneThreadAndPrefetchAgree) {
  NsysFixture f;
  FillStandard(f);
  LoadOptions one;
  one.threads = 1;
  const Trace a = MustLoadNsys(f.Bytes(), one);
  const Trace b = MustLoadNsys(f.Bytes());
  ASSERT_EQ(a.slices().size(), b.slices().size());
  for (size_t i = 0; i < a.slices().size(); ++i) {
    EXPECT_EQ(a.str(a.slices().name()[i]), b.str(b.slices().name()[i]));
    EXPECT_EQ(a.slices().start_ns()[i], b.slices().start_ns()[i]);
  }
  EXPECT_EQ(a.flows().size(), b.flows().size());
}

// The dispatcher, the in-memory entry point and SQLite opening the file
// itself load the same trace; none of them writes to the file.
TEST(NsysLoaderTest, FileAndBytesEntryPointsAgreeAndNeverWrite) {
  NsysFixture f;
  FillStandard(f);
  const std::string bytes = f.Bytes();
  const std::string path =
      (std::filesystem::temp_directory_path() / ("stepline_nsys_" + std::to_string(::getpid()) + ".sqlite")).string();
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ::chmod(path.c_str(), 0444);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  auto by_file = LoadNsysSqliteFile(path);
  auto by_dispatch = LoadFile(path);
  ASSERT_TRUE(by_file.ok()) << by_file.error().ToString();
  ASSERT_TRUE(by_dispatch.ok()) << by_dispatch.error().ToString();
  const Trace by_bytes = MustLoadNsys(bytes);
  EXPECT_EQ(by_file->slices().size(), by_bytes.slices().size());
  EXPECT_EQ(by_dispatch->slices().size(), by_bytes.slices().size());
  EXPECT_EQ(by_file->flows().size(), by_bytes.flows().size());
  EXPECT_EQ(by_dispatch->info().format, "nsys-sqlite");
  EXPECT_EQ(by_file->info().source_path, path);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_size, before.st_size);
  EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  EXPECT_EQ(::stepline::testing::ReadFileBytes(path), bytes);
  // No journal or WAL file appeared next to it.
  EXPECT_FALSE(std::filesystem::exists(path + "-journal"));
  EXPECT_FALSE(std::filesystem::exists(path + "-wal"));
  std::filesystem::remove(path);
}

TEST(NsysLoaderTest, GzipCompressedExportLoads) {
  NsysFixture f;
  FillStandard(f);
  const std::string bytes = f.Bytes();
  auto r = LoadBytes(Gzip(bytes), "run.sqlite.gz");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->info().format, "nsys-sqlite");
  EXPECT_EQ(r->info().compression, "gzip");
  EXPECT_EQ(r->slices().size(), MustLoadNsys(bytes).slices().size());
}

TEST(NsysLoaderTest, NsysRepGetsAnExportHint) {
  auto r = LoadBytes(std::string("\x01\x02\x03 not sqlite", 15), "run.nsys-rep");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kUnsupportedFormat);
  EXPECT_NE(r.error().message.find("nsys export --type sqlite run.nsys-rep"), std::string::npos) << r.error().message;
}

// Damaged databases: every prefix length and a few overwritten pages give an
// error or a partial trace with a diagnostic, never a crash or a hang.
TEST(NsysLoaderTest, TruncatedAndDamagedDatabasesNeverCrash) {
  NsysFixture f;
  FillStandard(f);
  const std::string bytes = f.Bytes();
  ASSERT_GT(bytes.size(), 8192u);
  int errors = 0, partial = 0;
  for (size_t cut = 0; cut < bytes.size(); cut += 1024) {
    auto r = LoadBytes(bytes.substr(0, cut), "cut.sqlite");
    if (!r.ok()) {
      ++errors;
      continue;
    }
    ++partial;
    EXPECT_EQ(r->CheckInvariants(), "");
    EXPECT_GT(r->diagnostics().count(DiagCode::kTruncated), 0u) << "cut at " << cut;
  }
  EXPECT_GT(errors, 0);
  // Cut after the schema page: the header's page count tells it was truncated.
  auto r = LoadNsysSqliteBytes(bytes.substr(0, bytes.size() / 2), "half.sqlite");
  if (!r.ok()) {
    EXPECT_EQ(r.error().byte_offset, bytes.size() / 2) << r.error().ToString();
    EXPECT_NE(r.error().message.find("truncated"), std::string::npos) << r.error().message;
  } else {
    EXPECT_EQ(r->diagnostics().entry(DiagCode::kTruncated).first_offset, bytes.size() / 2);
  }
  for (size_t page = 1; page * 4096 < bytes.size(); ++page) {
    std::string damaged = bytes;
    for (size_t i = page * 4096 + 8; i < std::min(damaged.size(), page * 4096 + 200); ++i) damaged[i] = '\xA5';
    auto d = LoadNsysSqliteBytes(damaged, "damaged.sqlite");
    if (d.ok()) {
      EXPECT_EQ(d->CheckInvariants(), "");
    }
  }
  // The magic alone.
  auto magic = LoadBytes(std::string("SQLite format 3\0", 16), "magic.sqlite");
  EXPECT_FALSE(magic.ok());
}

}  // namespace
}  // namespace stepline::loaders
