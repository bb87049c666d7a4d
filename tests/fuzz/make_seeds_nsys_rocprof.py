#!/usr/bin/env python3
"""Writes the seed corpora of fuzz_nsys and fuzz_rocprof (corpus/nsys/,
corpus/rocprof/) from small slices of the shared Nsight export and rocprofv3
file. Run once by hand; the output is committed.
   tests/fuzz/make_seeds_nsys_rocprof.py [TRACES_DIR]   (default ../shared/traces)
Nsight: the tables the loader reads, a few rows each, in a 512-byte-page
database (a few KB). rocprof: metadata, the GPU agents, the kernel symbols the
kept dispatches name, and a few records of each kind."""
import gzip, json, os, sqlite3, sys, tempfile

from make_seeds import write  # same corpus layout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRACES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "traces")
NSYS_TABLES = ["StringIds", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
               "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_RUNTIME", "PROCESSES",
               "ThreadNames", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME"]


def nsys_seed(src, rows):
    """A copy of src's loader tables holding their first `rows` rows."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "seed.sqlite")
        db = sqlite3.connect(out)
        db.execute("PRAGMA page_size=512")
        db.execute("ATTACH DATABASE ? AS src", ("file:%s?mode=ro" % src,))
        for table in NSYS_TABLES:
            sql = db.execute("SELECT sql FROM src.sqlite_master WHERE name=?", (table,)).fetchone()
            if not sql:
                continue
            db.execute(sql[0])
            db.execute("INSERT INTO main.%s SELECT * FROM src.%s LIMIT %d" % (table, table, rows))
        db.commit()
        db.execute("DETACH DATABASE src")
        db.execute("VACUUM")
        db.close()
        return open(out, "rb").read()


def rocprof_seed(doc, per_kind):
    tool = doc["rocprofiler-sdk-tool"][0]
    records = {k: v[:per_kind] for k, v in tool["buffer_records"].items() if v}
    kernel_ids = {r["dispatch_info"]["kernel_id"] for r in records.get("kernel_dispatch", [])}
    used_agents = {r["dispatch_info"]["agent_id"]["handle"] for r in records.get("kernel_dispatch", [])}
    # Agents keep their scalar fields (the caches/links arrays are most of the bytes).
    agents = [{k: v for k, v in a.items() if k == "id" or not isinstance(v, (list, dict))}
              for a in tool["agents"] if a["id"]["handle"] in used_agents or a.get("type") == 1][:3]
    # Operation names: only the kinds the loader reads, each list cut short.
    kinds = {"KERNEL_DISPATCH", "MEMORY_COPY", "HIP_RUNTIME_API", "MARKER_CORE_API", "RCCL_API"}
    strings = {"buffer_records": [dict(e, operations=e["operations"][:8]) for e in tool["strings"]["buffer_records"]
                                  if e["kind"] in kinds]}
    seed = {
        "metadata": {k: v for k, v in tool["metadata"].items() if k != "config"},
        "agents": agents,
        "strings": strings,
        "kernel_symbols": [s for s in tool["kernel_symbols"] if s.get("kernel_id") in kernel_ids],
        "buffer_records": records,
    }
    return json.dumps({"rocprofiler-sdk-tool": [seed]}, separators=(",", ":")).encode()


def main():
    nsys = os.path.join(TRACES, "nsys", "mock.sqlite")
    for rows in (3, 12):
        write("nsys", "mock_%d_rows.sqlite" % rows, nsys_seed(nsys, rows))
    doc = json.load(gzip.open(os.path.join(TRACES, "rocprof", "rocprofv3_908_results.json.gz")))
    for n in (2, 8):
        write("rocprof", "rocprofv3_%d_records.json" % n, rocprof_seed(doc, n))


if __name__ == "__main__":
    main()
