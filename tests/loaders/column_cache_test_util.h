// Helpers of the column cache tests: a scratch directory, cache settings that
// cache every trace, and a table-by-table, column-by-column comparison of two
// traces (through VisitStorage and through the public readers).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "loaders/column_cache/trace_cache.h"
#include "model/trace.h"

namespace stepline::testing {

// A fresh directory under $TMPDIR, removed with everything in it.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "stepline-cache-test-XXXXXX").string();
    path_ = mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Caches every trace, whatever its size, in `dir`.
inline column_cache::CacheSettings TestCacheSettings(const std::string& dir) {
  column_cache::CacheSettings s;
  s.dir = dir;
  s.min_trace_bytes = 0;
  s.stepline_version = "test-version";
  return s;
}

// Everything VisitStorage shows of a trace: each column's bytes by name, and
// the scalars and strings in visit order.
struct StorageRecord {
  std::vector<std::pair<std::string, std::string>> columns;
  std::string meta;

  template <typename T>
  void Col(const char* name, const Column<T>& c) {
    columns.emplace_back(name, std::string(reinterpret_cast<const char*>(c.data()), c.size() * sizeof(T)));
  }
  // Field by field: the struct's padding bytes are whatever each load left there.
  void Col(const char* name, const Column<TrackTable::Ranges>& c) {
    std::string bytes;
    for (const TrackTable::Ranges& r : c) {
      const uint32_t fields[] = {r.slice_begin, r.slice_end, r.instant_begin, r.instant_end,
                                 r.counter_begin, r.counter_end, r.max_depth};
      bytes.append(reinterpret_cast<const char*>(fields), sizeof fields);
    }
    columns.emplace_back(name, std::move(bytes));
  }
  template <typename T>
  void Scalar(const char*, const T& v) {
    meta.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void Text(const char*, const std::string& s) {
    const uint64_t n = s.size();
    meta.append(reinterpret_cast<const char*>(&n), sizeof n);
    meta += s;
  }
  bool ok() const { return true; }
  void Fail(std::string_view why) { ADD_FAILURE() << why; }
};

inline StorageRecord Record(const Trace& trace) {
  StorageRecord r;
  Trace::VisitStorage(trace, r);
  return r;
}

// Fails the test at the first table or column where `b` differs from `a`.
inline void ExpectSameTrace(const Trace& a, const Trace& b, const std::string& what) {
  SCOPED_TRACE(what);
  const StorageRecord ra = Record(a), rb = Record(b);
  ASSERT_EQ(ra.columns.size(), rb.columns.size());
  for (size_t i = 0; i < ra.columns.size(); ++i) {
    ASSERT_EQ(ra.columns[i].first, rb.columns[i].first);
    EXPECT_TRUE(ra.columns[i].second == rb.columns[i].second) << "column " << ra.columns[i].first << " differs";
  }
  EXPECT_TRUE(ra.meta == rb.meta) << "scalars, diagnostics or trace info differ";
  // The public readers, independently of VisitStorage.
  ASSERT_EQ(a.strings().size(), b.strings().size());
  for (size_t i = 0; i < a.strings().size(); ++i) {
    const StringId id = StringId::FromIndex(i);
    ASSERT_EQ(a.str(id), b.str(id)) << "string " << i;
    if (i > 0) {
      ASSERT_EQ(b.strings().Find(b.str(id)), id) << "string index lookup of " << b.str(id);
    }
  }
  ASSERT_EQ(a.slices().size(), b.slices().size());
  for (size_t i = 0; i < a.slices().size(); ++i) {
    const SliceId id = SliceId::FromIndex(i);
    const auto x = a.slices().row(id), y = b.slices().row(id);
    ASSERT_TRUE(x.track == y.track && x.start_ns == y.start_ns && x.dur_ns == y.dur_ns && x.name == y.name &&
                x.category == y.category && x.arg_set == y.arg_set && x.gpu_kind == y.gpu_kind &&
                a.slices().depth()[i] == b.slices().depth()[i] && a.slices().parent()[i] == b.slices().parent()[i])
        << "slice " << i;
  }
  ASSERT_EQ(a.tracks().size(), b.tracks().size());
  for (size_t t = 0; t < a.tracks().size(); ++t) {
    const TrackId id = TrackId::FromIndex(t);
    EXPECT_EQ(a.tracks().ranges(id).slice_end, b.tracks().ranges(id).slice_end);
    EXPECT_EQ(a.tracks().name(id), b.tracks().name(id));
  }
  EXPECT_EQ(a.args().size(), b.args().size());
  EXPECT_EQ(a.args().set_count(), b.args().set_count());
  EXPECT_EQ(a.instants().size(), b.instants().size());
  EXPECT_EQ(a.counters().size(), b.counters().size());
  EXPECT_EQ(a.flows().size(), b.flows().size());
  EXPECT_EQ(a.diagnostics().total(), b.diagnostics().total());
  EXPECT_EQ(a.info().format, b.info().format);
  EXPECT_EQ(a.info().input_bytes, b.info().input_bytes);
  EXPECT_EQ(a.info().event_cap, b.info().event_cap);
  EXPECT_EQ(a.info().recorded_until_ns, b.info().recorded_until_ns);
  EXPECT_EQ(a.span(), b.span());
  EXPECT_EQ(b.CheckInvariants(), "");
}

}  // namespace stepline::testing
