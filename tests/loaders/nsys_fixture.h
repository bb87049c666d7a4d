// NsysFixture: small Nsight Systems-shaped SQLite databases built by the
// tests themselves (schema text + rows), serialized to bytes for the loader.
// Column sets follow nsys export schema 3.x; tests drop tables or rename
// columns to check the loader copes with other versions.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>

namespace stepline::testing {

// globalTid / globalPid as Nsight encodes them: (vm << 48) | (pid << 24) | tid.
inline int64_t GlobalTid(int64_t pid, int64_t tid, int64_t vm = 1) { return (vm << 48) | (pid << 24) | tid; }

class NsysFixture {
 public:
  NsysFixture() { EXPECT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK); }
  ~NsysFixture() { sqlite3_close(db_); }
  NsysFixture(const NsysFixture&) = delete;
  NsysFixture& operator=(const NsysFixture&) = delete;

  // Runs SQL (CREATE / INSERT); a failure fails the test with SQLite's message.
  NsysFixture& Exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      ADD_FAILURE() << "fixture SQL failed: " << (error ? error : "?") << "\n" << sql;
      sqlite3_free(error);
    }
    return *this;
  }

  // The current-schema tables the loader reads, empty.
  NsysFixture& CreateStandardTables() {
    return Exec(
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
        "CREATE TABLE ThreadNames (nameId INTEGER, priority INTEGER, globalTid INTEGER);"
        "CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT, totalMemory INTEGER, smCount INTEGER, cuDevice INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
        " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
        " shortName INTEGER, mangledName INTEGER, registersPerThread INTEGER, gridX INTEGER, gridY INTEGER,"
        " gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, staticSharedMemory INTEGER,"
        " dynamicSharedMemory INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
        " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind "
        "INTEGER,"
        " srcKind INTEGER, dstKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,"
        " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER, "
        "memKind INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,"
        " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
        " syncType INTEGER);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,"
        " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);"
        "CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER, eventClass INTEGER, globalTid INTEGER,"
        " nameId INTEGER);"
        "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,"
        " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,"
        " domainId INTEGER);");
  }

  // The database as the bytes of a .sqlite file.
  std::string Bytes() const {
    sqlite3_int64 size = 0;
    unsigned char* data = sqlite3_serialize(db_, "main", &size, 0);
    std::string out(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
    sqlite3_free(data);
    return out;
  }

  sqlite3* db() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace stepline::testing
