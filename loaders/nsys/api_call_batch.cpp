// ApiCallBatch: one API-call table read into memory (see api_call_batch.h).
#include "loaders/nsys/api_call_batch.h"

#include <algorithm>
#include <tuple>

namespace stepline::loaders::nsys {

ApiCallBatch FetchApiCalls(const sqlite::Database& db, NsysTable t, bool with_correlation) {
  ApiCallBatch batch;
  const int start = t.Want({"start"}), end = t.Want({"end"});
  const int gtid = t.Want({"globalTid"});
  const int corr = with_correlation ? t.Want({"correlationId", "correlation"}) : NsysTable::kAbsent;
  const int name = t.Want({"nameId", "name"});
  if (start == NsysTable::kAbsent || gtid == NsysTable::kAbsent) return batch;
  batch.columns_ok = true;
  sqlite::Query q(db, t.Sql());
  if (!q.ok()) {
    batch.error = q.Error();
    return batch;
  }
  for (;;) {
    const sqlite::Query::Step s = q.Next();
    if (s == sqlite::Query::Step::kDone) break;
    if (s == sqlite::Query::Step::kError) {
      batch.error = q.Error();
      break;
    }
    if (q.IsNull(start)) continue;
    ApiCallBatch::Call c{};
    c.start_ns = q.Int(start);
    c.end_ns = end == NsysTable::kAbsent || q.IsNull(end) ? ApiCallBatch::kNoEnd : q.Int(end);
    c.global_tid = q.Int(gtid);
    c.correlation = IntOr(q, corr, 0);
    if (name == NsysTable::kAbsent || q.IsNull(name)) {
      c.name = -1;
    } else if (q.IsInteger(name)) {
      c.name = q.Int(name);
    } else {
      c.name_is_text = true;
      c.name = static_cast<int64_t>(batch.texts.size());
      batch.texts.emplace_back(q.Text(name));
    }
    batch.calls.push_back(c);
  }
  // In time order, whatever order the file holds the rows in (Nsight
  // Systems 2025.6 and later writes them unordered); sorted here rather than
  // by SQLite, so a cut file still yields the rows before its cut.
  std::stable_sort(batch.calls.begin(), batch.calls.end(), [](const ApiCallBatch::Call& a, const ApiCallBatch::Call& b) {
    return std::tie(a.start_ns, a.end_ns, a.global_tid, a.correlation) <
           std::tie(b.start_ns, b.end_ns, b.global_tid, b.correlation);
  });
  return batch;
}

}  // namespace stepline::loaders::nsys
