// `make_nsys OUT.sqlite STEPS [KERNELS_PER_STEP] [GPUS]`: writes a synthetic
// Nsight Systems export for `stepline bench` and `stepline report`: per GPU
// one training process whose main thread marks each step with an NVTX
// "train_step" range, reads input (OSRT `read`), launches KERNELS_PER_STEP
// kernels (cudaLaunchKernel -> kernel, linked by correlationId), a copy and
// a memset, synchronizes, and waits on a condition variable before the last
// launch. Kernel + runtime rows = 2 x STEPS x KERNELS_PER_STEP x GPUS (plus a
// few per step). Built with the benchmarks, never run in CI.
#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

constexpr const char* kSchema =
    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
    "CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);"
    "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER, cuDevice INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
    " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
    " shortName INTEGER, registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER,"
    " blockY INTEGER, blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
    " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind INTEGER,"
    " srcKind INTEGER, dstKind INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
    " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER,"
    " memKind INTEGER);"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,"
    " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);"
    "CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER, eventClass INTEGER, globalTid INTEGER, nameId "
    "INTEGER);"
    "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT,"
    " globalTid INTEGER, textId INTEGER, domainId INTEGER);";

// Kernel names 100.. (a transformer-ish mix), runtime/OS names 1..9.
constexpr const char* kKernelNames[] = {"ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
                                        "void at::native::vectorized_elementwise_kernel",
                                        "void flash::flash_fwd_kernel",
                                        "void at::native::reduce_kernel",
                                        "void layer_norm_kernel",
                                        "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"};

struct Db {
  sqlite3* db = nullptr;
  void Exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      std::fprintf(stderr, "make_nsys: %s\n", error ? error : "?");
      std::exit(1);
    }
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
      std::fprintf(stderr, "make_nsys: %s\n", sqlite3_errmsg(db));
      std::exit(1);
    }
    return s;
  }
};

void Insert(sqlite3_stmt* s, std::initializer_list<int64_t> values) {
  int i = 1;
  for (int64_t v : values) sqlite3_bind_int64(s, i++, v);
  if (sqlite3_step(s) != SQLITE_DONE) {
    std::fprintf(stderr, "make_nsys: insert failed\n");
    std::exit(1);
  }
  sqlite3_reset(s);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_nsys OUT.sqlite STEPS [KERNELS_PER_STEP] [GPUS]\n");
    return 2;
  }
  const int64_t steps = std::strtoll(argv[2], nullptr, 10);
  const int64_t per_step = argc > 3 ? std::strtoll(argv[3], nullptr, 10) : 200;
  const int64_t gpus = argc > 4 ? std::strtoll(argv[4], nullptr, 10) : 1;
  std::remove(argv[1]);
  Db d;
  if (sqlite3_open(argv[1], &d.db) != SQLITE_OK) {
    std::fprintf(stderr, "make_nsys: cannot create %s\n", argv[1]);
    return 1;
  }
  d.Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;");
  d.Exec(kSchema);
  d.Exec("BEGIN");
  d.Exec(
      "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaStreamSynchronize_v3020'),"
      " (3, 'read'), (4, 'pthread_cond_wait'), (5, 'cudaMemcpyAsync_v3020'), (6, 'cudaMemsetAsync_v3020'),"
      " (7, 'pt_main_thread');");
  for (size_t i = 0; i < std::size(kKernelNames); ++i)
    d.Exec("INSERT INTO StringIds VALUES (" + std::to_string(100 + i) + ", '" + kKernelNames[i] + "');");
  sqlite3_stmt* kernel = d.Prepare(
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, 64, ?, 1, 1, 256, 1, 1, 0, 4096)");
  sqlite3_stmt* runtime = d.Prepare("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 1, ?, ?, ?, 0)");
  sqlite3_stmt* memcpy =
      d.Prepare("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, 1, 7, ?, ?, 1048576, 1, 1, 2)");
  sqlite3_stmt* memset = d.Prepare("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?, ?, ?, 1, 7, ?, ?, 0, 4096, 2)");
  sqlite3_stmt* osrt = d.Prepare("INSERT INTO OSRT_API VALUES (?, ?, 1, ?, ?)");
  sqlite3_stmt* nvtx = d.Prepare("INSERT INTO NVTX_EVENTS VALUES (?, ?, 59, 'train_step', ?, NULL, 0)");
  uint64_t rows = 0;
  for (int64_t g = 0; g < gpus; ++g) {
    const int64_t pid = 1000 + g;
    const int64_t global_pid = (int64_t{1} << 48) | (pid << 24);
    const int64_t gtid = global_pid | (pid + 1);
    d.Exec("INSERT INTO PROCESSES VALUES (" + std::to_string(global_pid) + ", " + std::to_string(pid) +
           ", 'python3');");
    d.Exec("INSERT INTO ThreadNames VALUES (7, 20, " + std::to_string(gtid) + ");");
    d.Exec("INSERT INTO TARGET_INFO_GPU VALUES (" + std::to_string(g) +
           ", 'NVIDIA H100 80GB HBM3', 85520809984, 132, " + std::to_string(g) + ");");
    int64_t corr = 1;
    int64_t t = 1'000'000'000;
    for (int64_t s = 0; s < steps; ++s) {
      const int64_t step_start = t;
      // Input: the thread blocks in read() for 2 ms while the GPU sits idle.
      Insert(osrt, {t + 10'000, t + 2'010'000, gtid, 3});
      t += 2'020'000;
      Insert(runtime, {t, t + 4'000, gtid, corr, 5});
      Insert(memcpy, {t + 6'000, t + 90'000, g, corr++, global_pid});
      t += 5'000;
      Insert(runtime, {t, t + 3'000, gtid, corr, 6});
      Insert(memset, {t + 92'000, t + 94'000, g, corr++, global_pid});
      t += 4'000;
      int64_t gpu_t = t + 100'000;
      for (int64_t k = 0; k < per_step; ++k) {
        const bool last = k + 1 == per_step;
        if (last) {
          // The host waits on a condition variable before the last launch.
          Insert(runtime, {t, t + 2'000, gtid, 0, 2});
          Insert(osrt, {t + 2'000, t + 300'000, gtid, 4});
          t += 300'000;
          gpu_t = std::max(gpu_t, t + 5'000);
        }
        const int64_t name = 100 + (k % static_cast<int64_t>(std::size(kKernelNames)));
        const int64_t dur = 4'000 + (k * 7919) % 20'000;
        Insert(runtime, {t, t + 3'000, gtid, corr, 1});
        gpu_t = std::max(gpu_t, t + 5'000);
        Insert(kernel, {gpu_t, gpu_t + dur, g, 7 + (k % 2), corr++, global_pid, name, name, 128 + k % 64});
        gpu_t += dur + 500;
        t += 3'500;
        rows += 2;
      }
      t = std::max(t, gpu_t) + 50'000;
      Insert(nvtx, {step_start, t, gtid});
      t += 20'000;
    }
  }
  for (sqlite3_stmt* s : {kernel, runtime, memcpy, memset, osrt, nvtx}) sqlite3_finalize(s);
  d.Exec("COMMIT");
  sqlite3_close(d.db);
  std::printf("%s: %llu kernel + launch rows\n", argv[1], static_cast<unsigned long long>(rows));
  return 0;
}
