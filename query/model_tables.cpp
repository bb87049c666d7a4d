// The model tables of model_tables.h. Values follow the export exactly:
// empty strings are NULL, kNone sentinels are NULL, times are integer ns.
#include "query/model_tables.h"

#include <sqlite3.h>

#include <algorithm>
#include <mutex>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "model/gpu_kind.h"

namespace stepline::query {
namespace {

void TextOrNull(sqlite3_context* ctx, std::string_view s) {
  if (s.empty()) {
    sqlite3_result_null(ctx);
  } else {
    // The pool's strings never move while the trace lives: no copy.
    sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
  }
}

//-----------------------------------------------------------------------------
// slice
//-----------------------------------------------------------------------------

class SliceSource final : public TableSource {
 public:
  explicit SliceSource(const Trace& t) : t_(t), s_(t.slices()) {}
  const char* Declaration() const override {
    return "CREATE TABLE slice(id INTEGER, ts INTEGER, dur INTEGER, track_id INTEGER, name TEXT, category TEXT, "
           "depth INTEGER, parent_id INTEGER, gpu_kind TEXT)";
  }
  int64_t RowCount() const override { return static_cast<int64_t>(s_.size()); }
  const int64_t* Int64Column(int column) const override {
    static_assert(std::is_same_v<TimeNs, int64_t> && std::is_same_v<DurNs, int64_t>);
    return column == 1 ? s_.start_ns().data() : column == 2 ? s_.dur_ns().data() : nullptr;
  }
  int RowIndexColumn() const override { return kId; }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const auto i = static_cast<size_t>(row);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, row); break;
      case 1: sqlite3_result_int64(ctx, s_.start_ns()[i]); break;
      case 2: sqlite3_result_int64(ctx, s_.dur_ns()[i]); break;
      case 3: sqlite3_result_int64(ctx, s_.track()[i].index()); break;
      case 4: TextOrNull(ctx, t_.str(s_.name()[i])); break;
      case 5: TextOrNull(ctx, t_.str(s_.category()[i])); break;
      case 6: sqlite3_result_int(ctx, s_.depth()[i]); break;
      case 7:
        if (s_.parent()[i].is_none()) {
          sqlite3_result_null(ctx);
        } else {
          sqlite3_result_int64(ctx, s_.parent()[i].index());
        }
        break;
      case 8:
        if (s_.gpu_kind()[i] == GpuKind::kNone) {
          sqlite3_result_null(ctx);
        } else {
          const std::string_view kind = GpuKindName(s_.gpu_kind()[i]);
          sqlite3_result_text(ctx, kind.data(), static_cast<int>(kind.size()), SQLITE_STATIC);
        }
        break;
      default: sqlite3_result_null(ctx);
    }
  }

  static constexpr int kId = 0, kTs = 1, kTrack = 3, kName = 4;
  // idxNum bit of the plan that walks the rows by name (GROUP BY / ORDER BY name).
  static constexpr int kByName = 1 << (3 * kRangeBits);
  static constexpr int kGpuKindColumn = 8;
  // idxNum bit: a gpu_kind = ? or IN (...) constraint, its values the last argument.
  static constexpr int kGpuKindIn = 1 << (3 * kRangeBits + 1);

  // gpu_kind = 'kernel' or IN ('kernel', 'collective'): the values all at
  // once (sqlite3_vtab_in), so the cursor skips other rows by their kind byte
  // instead of handing each one to SQLite to compare.
  static int PlanGpuKind(sqlite3_index_info* info, int* next_argv) {
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& c = info->aConstraint[i];
      if (!c.usable || c.iColumn != kGpuKindColumn || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
      if (sqlite3_vtab_in(info, i, -1)) sqlite3_vtab_in(info, i, 1);
      info->aConstraintUsage[i].argvIndex = ++*next_argv;
      info->aConstraintUsage[i].omit = 0;
      return kGpuKindIn;
    }
    return 0;
  }

  const uint8_t* KeepColumn(int idx_num, int argc, sqlite3_value** argv, std::array<bool, 256>* keep) const override {
    if ((idx_num & kGpuKindIn) == 0 || argc == 0) return nullptr;
    keep->fill(false);
    const auto mark = [keep](sqlite3_value* v) {
      if (sqlite3_value_type(v) != SQLITE_TEXT) return;  // NULL, numbers: no kind has that text
      const std::string_view text(reinterpret_cast<const char*>(sqlite3_value_text(v)),
                                  static_cast<size_t>(sqlite3_value_bytes(v)));
      for (int k = 1; k < kGpuKindCount; ++k) {
        if (GpuKindName(static_cast<GpuKind>(k)) == text) (*keep)[size_t(k)] = true;
      }
    };
    sqlite3_value* arg = argv[argc - 1];
    sqlite3_value* value = nullptr;
    if (sqlite3_vtab_in_first(arg, &value) == SQLITE_OK) {
      for (int rc = SQLITE_OK; rc == SQLITE_OK && value != nullptr; rc = sqlite3_vtab_in_next(arg, &value)) mark(value);
    } else {
      mark(arg);  // a plain = value
    }
    static_assert(sizeof(GpuKind) == 1);
    return reinterpret_cast<const uint8_t*>(s_.gpu_kind().data());
  }
  static constexpr int kTrackShift = kRangeBits, kTsShift = 2 * kRangeBits;

  void BestIndex(sqlite3_index_info* info) const override {
    int next = 0;
    int bits = PlanRange(info, kId, 0, &next);
    bits |= PlanRange(info, kTrack, kTrackShift, &next);
    bits |= PlanRange(info, kTs, kTsShift, &next);
    info->idxNum = bits;
    const double rows = static_cast<double>(s_.size());
    // GROUP BY name or ORDER BY name over the whole table: walk the rows in
    // name order (a permutation built once), so SQLite aggregates as the rows
    // stream instead of sorting every row's name first.
    if (bits == 0 && info->nOrderBy == 1 && info->aOrderBy[0].iColumn == kName && !info->aOrderBy[0].desc) {
      info->idxNum = kByName | PlanGpuKind(info, &next);
      info->orderByConsumed = 1;
      info->estimatedRows = static_cast<sqlite3_int64>((info->idxNum & kGpuKindIn) ? rows / 4 : rows);
      info->estimatedCost = rows + 1;
      return;
    }
    info->idxNum |= PlanGpuKind(info, &next);
    const double tracks = std::max<double>(1, static_cast<double>(t_.tracks().size()));
    double estimate = rows;
    if (bits & 1) {
      estimate = 1;
    } else {
      if (bits & (kRangeMask << 0)) estimate /= 4;
      if ((bits >> kTrackShift) & 1) {
        estimate /= tracks;
      } else if (bits & (kRangeMask << kTrackShift)) {
        estimate /= 4;
      }
      if (bits & (kRangeMask << kTsShift)) estimate /= 8;  // a window of the trace
      if (info->idxNum & kGpuKindIn) estimate /= 4;
    }
    estimate = std::max(estimate, 1.0);
    info->estimatedRows = static_cast<sqlite3_int64>(estimate);
    info->estimatedCost = estimate + 1;
    if (bits & 1) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    // Rows come in id order, which is (track_id, ts) order.
    bool consumed = info->nOrderBy > 0;
    const bool one_track = ((bits >> kTrackShift) & 1) != 0;
    for (int k = 0; k < info->nOrderBy && consumed; ++k) {
      const auto& o = info->aOrderBy[k];
      const bool id_order = info->nOrderBy == 1 && o.iColumn == kId;
      const bool track_ts = (k == 0 && o.iColumn == kTrack) || (k == 1 && o.iColumn == kTs &&
                                                                 info->aOrderBy[0].iColumn == kTrack);
      const bool ts_in_one_track = one_track && info->nOrderBy == 1 && o.iColumn == kTs;
      consumed = !o.desc && (id_order || track_ts || ts_in_one_track);
    }
    if (consumed) info->orderByConsumed = 1;
  }

  const uint32_t* RowOrder(int idx_num) const override {
    if ((idx_num & kByName) == 0) return nullptr;
    std::call_once(by_name_once_, [this] { BuildNameOrder(); });
    return by_name_.data();
  }

  std::vector<RowRange> Filter(int idx_num, int, sqlite3_value** argv) const override {
    if (idx_num & kByName) return {{0, RowCount()}};
    int next = 0;
    const IntRange id = ReadRange(idx_num, 0, argv, &next);
    const IntRange track = ReadRange(idx_num, kTrackShift, argv, &next);
    const IntRange ts = ReadRange(idx_num, kTsShift, argv, &next);
    const int64_t rows = RowCount();
    const int64_t id_begin = std::max<int64_t>(id.lo, 0);
    const int64_t id_end = id.hi >= rows - 1 ? rows : id.hi + 1;
    std::vector<RowRange> out;
    if (id_begin >= id_end) return out;
    if (!track.narrowed && !ts.narrowed) return {{id_begin, id_end}};
    const int64_t tracks = static_cast<int64_t>(t_.tracks().size());
    const int64_t first = std::max<int64_t>(track.lo, 0);
    const int64_t last = std::min<int64_t>(track.hi, tracks - 1);
    const auto starts = s_.start_ns();
    for (int64_t k = first; k <= last; ++k) {
      const auto& r = t_.tracks().ranges(TrackId::FromIndex(static_cast<size_t>(k)));
      int64_t begin = r.slice_begin, end = r.slice_end;
      if (ts.narrowed) {
        const auto b = starts.begin();
        begin = std::lower_bound(b + begin, b + end, ts.lo) - b;
        end = ts.hi == INT64_MAX ? end : std::upper_bound(b + begin, b + end, ts.hi) - b;
      }
      begin = std::max(begin, id_begin);
      end = std::min(end, id_end);
      if (begin < end) out.push_back({begin, end});
    }
    // Tracks are not guaranteed to be laid out in id order: keep rows in id order.
    std::sort(out.begin(), out.end(), [](const RowRange& a, const RowRange& b) { return a.begin < b.begin; });
    return out;
  }

 private:
  // The rows sorted by name as SQLite orders text (bytes; NULL, the empty
  // name, first), equal texts together: the distinct names are sorted, each
  // gets a rank, and a counting sort by rank places the rows, O(rows).
  void BuildNameOrder() const {
    const StringPool& pool = t_.strings();
    std::vector<uint32_t> ids(pool.size());
    std::iota(ids.begin(), ids.end(), 0u);
    const auto text = [&](uint32_t id) { return pool.Get(StringId(id)); };
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return text(a) < text(b); });
    std::vector<uint32_t> rank(pool.size());
    uint32_t next = 0;
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i > 0 && text(ids[i]) != text(ids[i - 1])) ++next;
      rank[ids[i]] = next;
    }
    std::vector<uint32_t> start(size_t{next} + 2, 0);
    const auto names = s_.name();
    for (const StringId n : names) ++start[rank[n.index()] + 1];
    for (size_t r = 1; r < start.size(); ++r) start[r] += start[r - 1];
    by_name_.resize(names.size());
    for (size_t row = 0; row < names.size(); ++row) by_name_[start[rank[names[row].index()]]++] = static_cast<uint32_t>(row);
  }

  static constexpr int kRangeMask = (1 << kRangeBits) - 1;
  const Trace& t_;
  const SliceTable& s_;
  mutable std::once_flag by_name_once_;
  mutable std::vector<uint32_t> by_name_;
};

//-----------------------------------------------------------------------------
// track, instant, flow, counter, arg
//-----------------------------------------------------------------------------

class TrackSource final : public TableSource {
 public:
  explicit TrackSource(const Trace& t) : t_(t) {}
  const char* Declaration() const override {
    return "CREATE TABLE track(id INTEGER, name TEXT, kind TEXT, device INTEGER, process TEXT, pid INTEGER, "
           "thread INTEGER)";
  }
  int64_t RowCount() const override { return static_cast<int64_t>(t_.tracks().size()); }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const TrackTable& tracks = t_.tracks();
    const TrackId id = TrackId::FromIndex(static_cast<size_t>(row));
    const ProcessId process = tracks.process(id);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, row); break;
      case 1: TextOrNull(ctx, t_.str(tracks.name(id))); break;
      case 2: {
        const std::string_view kind = TrackKindName(tracks.kind(id));
        sqlite3_result_text(ctx, kind.data(), static_cast<int>(kind.size()), SQLITE_STATIC);
        break;
      }
      case 3:
        if (tracks.device_id(id) < 0) {
          sqlite3_result_null(ctx);
        } else {
          sqlite3_result_int(ctx, tracks.device_id(id));
        }
        break;
      case 4:
        if (process.is_none()) {
          sqlite3_result_null(ctx);
        } else {
          TextOrNull(ctx, t_.str(t_.processes().name(process)));
        }
        break;
      case 5:
        if (process.is_none()) {
          sqlite3_result_null(ctx);
        } else {
          sqlite3_result_int64(ctx, t_.processes().pid(process));
        }
        break;
      case 6: sqlite3_result_int64(ctx, tracks.tid(id)); break;
      default: sqlite3_result_null(ctx);
    }
  }
  int RowIndexColumn() const override { return 0; }  // id: ranges and ORDER BY id by row

 private:
  const Trace& t_;
};

class InstantSource final : public TableSource {
 public:
  explicit InstantSource(const Trace& t) : t_(t), s_(t.instants()) {}
  const char* Declaration() const override {
    return "CREATE TABLE instant(id INTEGER, ts INTEGER, track_id INTEGER, name TEXT, category TEXT)";
  }
  int64_t RowCount() const override { return static_cast<int64_t>(s_.size()); }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const auto i = static_cast<size_t>(row);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, row); break;
      case 1: sqlite3_result_int64(ctx, s_.ts_ns()[i]); break;
      case 2: sqlite3_result_int64(ctx, s_.track()[i].index()); break;
      case 3: TextOrNull(ctx, t_.str(s_.name()[i])); break;
      case 4: TextOrNull(ctx, t_.str(s_.category()[i])); break;
      default: sqlite3_result_null(ctx);
    }
  }
  int RowIndexColumn() const override { return 0; }  // id: ranges and ORDER BY id by row

 private:
  const Trace& t_;
  const InstantTable& s_;
};

class FlowSource final : public TableSource {
 public:
  explicit FlowSource(const Trace& t) : t_(t), f_(t.flows()) {}
  const char* Declaration() const override {
    return "CREATE TABLE flow(id INTEGER, from_slice_id INTEGER, to_slice_id INTEGER, kind TEXT, name TEXT, "
           "category TEXT, flow_id INTEGER)";
  }
  int64_t RowCount() const override { return static_cast<int64_t>(f_.size()); }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const auto i = static_cast<size_t>(row);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, row); break;
      case 1: sqlite3_result_int64(ctx, f_.from()[i].index()); break;
      case 2: sqlite3_result_int64(ctx, f_.to()[i].index()); break;
      case 3: sqlite3_result_text(ctx, f_.kind()[i] == FlowKind::kLaunch ? "launch" : "generic", -1, SQLITE_STATIC); break;
      case 4: TextOrNull(ctx, t_.str(f_.name()[i])); break;
      case 5: TextOrNull(ctx, t_.str(f_.category()[i])); break;
      case 6:
        if (f_.flow_id()[i] == 0) {
          sqlite3_result_null(ctx);
        } else {
          sqlite3_result_int64(ctx, static_cast<int64_t>(f_.flow_id()[i]));  // keeps the bits, as the export
        }
        break;
      default: sqlite3_result_null(ctx);
    }
  }
  int RowIndexColumn() const override { return 0; }  // id: ranges and ORDER BY id by row

 private:
  const Trace& t_;
  const FlowTable& f_;
};

class CounterSource final : public TableSource {
 public:
  explicit CounterSource(const Trace& t) : c_(t.counters()) {}
  const char* Declaration() const override { return "CREATE TABLE counter(track_id INTEGER, ts INTEGER, value REAL)"; }
  int64_t RowCount() const override { return static_cast<int64_t>(c_.size()); }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override {
    const auto i = static_cast<size_t>(row);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, c_.track()[i].index()); break;
      case 1: sqlite3_result_int64(ctx, c_.ts_ns()[i]); break;
      case 2: sqlite3_result_double(ctx, c_.value()[i]); break;
      default: sqlite3_result_null(ctx);
    }
  }

 private:
  const CounterTable& c_;
};

// Row = slice; its sub-rows are its args, as the export writes them.
class ArgSource final : public TableSource {
 public:
  explicit ArgSource(const Trace& t) : t_(t), s_(t.slices()), a_(t.args()) {}
  const char* Declaration() const override {
    return "CREATE TABLE arg(slice_id INTEGER, seq INTEGER, key TEXT, value ANY)";
  }
  int64_t RowCount() const override { return static_cast<int64_t>(s_.size()); }
  bool HasSubRows() const override { return true; }
  int64_t SubRowCount(int64_t row) const override {
    const ArgSetId set = s_.arg_set()[static_cast<size_t>(row)];
    return set.is_none() ? 0 : int64_t{a_.set_end(set)} - a_.set_begin(set);
  }
  void Column(sqlite3_context* ctx, int64_t row, int column) const override { SubColumn(ctx, row, 0, column); }
  void SubColumn(sqlite3_context* ctx, int64_t row, int64_t sub, int column) const override {
    const ArgSetId set = s_.arg_set()[static_cast<size_t>(row)];
    const uint32_t r = a_.set_begin(set) + static_cast<uint32_t>(sub);
    switch (column) {
      case 0: sqlite3_result_int64(ctx, row); break;
      case 1: sqlite3_result_int64(ctx, sub); break;
      case 2: TextOrNull(ctx, t_.str(a_.key()[r])); break;
      case 3: Value(ctx, a_.value(r)); break;
      default: sqlite3_result_null(ctx);
    }
  }
  int RowIndexColumn() const override { return 0; }  // slice_id: a row holds one slice's args

 private:
  // As the export's BindArgValue.
  void Value(sqlite3_context* ctx, ArgValue v) const {
    switch (v.type) {
      case ArgType::kInt: sqlite3_result_int64(ctx, v.as_int()); break;
      case ArgType::kBool: sqlite3_result_int(ctx, v.as_bool() ? 1 : 0); break;
      case ArgType::kDouble: sqlite3_result_double(ctx, v.as_double()); break;
      case ArgType::kString:
      case ArgType::kJson: {
        const std::string_view s = t_.str(v.as_string());
        sqlite3_result_text(ctx, s.data(), static_cast<int>(s.size()), SQLITE_STATIC);
        break;
      }
      case ArgType::kDecimalString: {
        const std::string digits = std::to_string(v.as_uint());
        sqlite3_result_text(ctx, digits.data(), static_cast<int>(digits.size()), SQLITE_TRANSIENT);
        break;
      }
      case ArgType::kUint:
        if (v.as_uint() > static_cast<uint64_t>(INT64_MAX)) {
          const std::string digits = std::to_string(v.as_uint());
          sqlite3_result_text(ctx, digits.data(), static_cast<int>(digits.size()), SQLITE_TRANSIENT);
        } else {
          sqlite3_result_int64(ctx, static_cast<int64_t>(v.as_uint()));
        }
        break;
    }
  }

  const Trace& t_;
  const SliceTable& s_;
  const ArgTable& a_;
};

}  // namespace

std::unique_ptr<TableSource> MakeSliceSource(const Trace& trace) { return std::make_unique<SliceSource>(trace); }
std::unique_ptr<TableSource> MakeTrackSource(const Trace& trace) { return std::make_unique<TrackSource>(trace); }
std::unique_ptr<TableSource> MakeInstantSource(const Trace& trace) { return std::make_unique<InstantSource>(trace); }
std::unique_ptr<TableSource> MakeFlowSource(const Trace& trace) { return std::make_unique<FlowSource>(trace); }
std::unique_ptr<TableSource> MakeCounterSource(const Trace& trace) { return std::make_unique<CounterSource>(trace); }
std::unique_ptr<TableSource> MakeArgSource(const Trace& trace) { return std::make_unique<ArgSource>(trace); }

}  // namespace stepline::query
