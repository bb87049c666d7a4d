#!/usr/bin/env python3
"""Independent facts over the Nsight Systems and rocprofv3 traces of ../shared/traces.

Reads every row of nsys/MANIFEST.tsv and rocprof/MANIFEST.tsv straight from the raw
files (Python's sqlite3 and json modules; nothing of Stepline) and prints one TSV row
per trace. Columns:

  path            the MANIFEST local_path, prefixed with its folder
  kernels         rows of CUPTI_ACTIVITY_KIND_KERNEL / kernel dispatch records
  kernel_ns       sum of (end - start) over them
  collectives     kernels whose name contains nccl/rccl/all_reduce/allreduce/all_gather/
                  allgather/reduce_scatter/reducescatter/cross_device_reduce (any case);
                  names from StringIds via demangledName, else shortName (nsys), or
                  kernel_symbols formatted_kernel_name, else kernel_name (rocprof)
  memcpy          rows of CUPTI_ACTIVITY_KIND_MEMCPY / memory_copy records
  memcpy_h2d, memcpy_d2h, memcpy_d2d
                  copies with copyKind 1, 2, 8 (nsys); rocprof by agent types
  memset          rows of CUPTI_ACTIVITY_KIND_MEMSET
  sync            rows of CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
  runtime         rows of CUPTI_ACTIVITY_KIND_RUNTIME + _DRIVER (nsys), hip/hsa/rccl api (rocprof)
  osrt            rows of OSRT_API
  nvtx_ranges     NVTX_EVENTS rows with eventType 59 or 60 and a non-NULL end (roctx ranges)
  nvtx_marks      NVTX_EVENTS rows with eventType 34
  devices         distinct deviceId over kernels, copies, memsets (rocprof: GPU agents with dispatches)
  streams         distinct (deviceId, streamId) over kernels, copies, memsets (rocprof: (agent, queue))
  launch_links    device activities (kernel, memcpy, memset) whose (process, correlationId) matches a
                  runtime/driver call of the same process (process = (globalTid >> 24) & 0xFFFFFF
                  for calls, (globalPid >> 24) & 0xFFFFFF for activities)
  first_ns, last_ns
                  min start and max end over every row counted above

Run: python3 count_facts.py > facts.tsv   (STEPLINE_TRACES overrides ../shared/traces)
"""
import csv
import gzip
import json
import os
import sqlite3
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.environ.get("STEPLINE_TRACES") or os.path.join(HERE, "..", "..", "..", "..", "shared", "traces")
COLLECTIVE = ("nccl", "rccl", "cross_device_reduce", "all_reduce", "allreduce", "all_gather", "allgather",
              "reduce_scatter", "reducescatter")
COLUMNS = ["path", "kernels", "kernel_ns", "collectives", "memcpy", "memcpy_h2d", "memcpy_d2h", "memcpy_d2d",
           "memset", "sync", "runtime", "osrt", "nvtx_ranges", "nvtx_marks", "devices", "streams",
           "launch_links", "first_ns", "last_ns"]


def is_collective(name):
    low = (name or "").lower()
    return any(k in low for k in COLLECTIVE)


def manifest(folder):
    with open(os.path.join(TRACES, folder, "MANIFEST.tsv"), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def nsys_facts(path):
    db = sqlite3.connect("file:" + path + "?mode=ro&immutable=1", uri=True)
    tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
    strings = dict(db.execute("select id, value from StringIds")) if "StringIds" in tables else {}
    f = {c: 0 for c in COLUMNS}
    f["first_ns"], f["last_ns"] = None, None
    devices, streams = set(), set()
    activity_keys = []

    def span(s, e):
        f["first_ns"] = s if f["first_ns"] is None else min(f["first_ns"], s)
        end = e if e is not None else s
        f["last_ns"] = end if f["last_ns"] is None else max(f["last_ns"], end)

    if "CUPTI_ACTIVITY_KIND_KERNEL" in tables:
        for s, e, dev, stream, corr, gpid, dem, short in db.execute(
                "select start, end, deviceId, streamId, correlationId, globalPid, demangledName, shortName "
                "from CUPTI_ACTIVITY_KIND_KERNEL"):
            f["kernels"] += 1
            f["kernel_ns"] += e - s
            name = strings.get(dem) if dem is not None else None
            if name is None:
                name = strings.get(short)
            f["collectives"] += is_collective(name)
            devices.add(dev)
            streams.add((dev, stream))
            activity_keys.append(((gpid >> 24) & 0xFFFFFF, corr))
            span(s, e)
    if "CUPTI_ACTIVITY_KIND_MEMCPY" in tables:
        for s, e, dev, stream, corr, gpid, kind in db.execute(
                "select start, end, deviceId, streamId, correlationId, globalPid, copyKind "
                "from CUPTI_ACTIVITY_KIND_MEMCPY"):
            f["memcpy"] += 1
            f["memcpy_h2d"] += kind == 1
            f["memcpy_d2h"] += kind == 2
            f["memcpy_d2d"] += kind == 8
            devices.add(dev)
            streams.add((dev, stream))
            activity_keys.append(((gpid >> 24) & 0xFFFFFF, corr))
            span(s, e)
    if "CUPTI_ACTIVITY_KIND_MEMSET" in tables:
        for s, e, dev, stream, corr, gpid in db.execute(
                "select start, end, deviceId, streamId, correlationId, globalPid from CUPTI_ACTIVITY_KIND_MEMSET"):
            f["memset"] += 1
            devices.add(dev)
            streams.add((dev, stream))
            activity_keys.append(((gpid >> 24) & 0xFFFFFF, corr))
            span(s, e)
    if "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION" in tables:
        for s, e in db.execute("select start, end from CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"):
            f["sync"] += 1
            span(s, e)
    launches = set()
    for t in ("CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"):
        if t in tables:
            for s, e, gtid, corr in db.execute("select start, end, globalTid, correlationId from " + t):
                f["runtime"] += 1
                if corr:
                    launches.add(((gtid >> 24) & 0xFFFFFF, corr))
                span(s, e)
    if "OSRT_API" in tables:
        for s, e in db.execute("select start, end from OSRT_API"):
            f["osrt"] += 1
            span(s, e)
    if "NVTX_EVENTS" in tables:
        for s, e, t in db.execute("select start, end, eventType from NVTX_EVENTS where eventType in (34, 59, 60)"):
            if t == 34:
                f["nvtx_marks"] += 1
                span(s, s)
            elif e is not None:
                f["nvtx_ranges"] += 1
                span(s, e)
    f["launch_links"] = sum(1 for k in activity_keys if k[1] and k in launches)
    f["devices"] = len(devices)
    f["streams"] = len(streams)
    return f


def rocprof_facts(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as fh:
        doc = json.load(fh)
    f = {c: 0 for c in COLUMNS}
    first, last = None, None
    devices, streams = set(), set()
    for entry in doc["rocprofiler-sdk-tool"]:
        agents = {a["id"]["handle"]: a for a in entry.get("agents", [])}
        symbols = {}
        for s in entry.get("kernel_symbols", []):
            name = s.get("formatted_kernel_name") or s.get("kernel_name", "")
            symbols[s["kernel_id"]] = name
        records = entry.get("buffer_records", {})
        dispatches = records.get("kernel_dispatch", records.get("kernel_dispatches", []))
        for r in dispatches:
            info = r["dispatch_info"]
            f["kernels"] += 1
            f["kernel_ns"] += r["end_timestamp"] - r["start_timestamp"]
            f["collectives"] += is_collective(symbols.get(info["kernel_id"]))
            agent = info["agent_id"]["handle"]
            devices.add(agent)
            streams.add((agent, info["queue_id"]["handle"]))
            first = r["start_timestamp"] if first is None else min(first, r["start_timestamp"])
            last = r["end_timestamp"] if last is None else max(last, r["end_timestamp"])
        for r in records.get("memory_copy", []):
            f["memcpy"] += 1
            src = agents.get(r["src_agent_id"]["handle"], {}).get("type") == 2
            dst = agents.get(r["dst_agent_id"]["handle"], {}).get("type") == 2
            f["memcpy_h2d"] += (not src) and dst
            f["memcpy_d2h"] += src and not dst
        for k in ("hip_api", "hsa_api", "rccl_api"):
            f["runtime"] += len(records.get(k, []))
    f["devices"], f["streams"] = len(devices), len(streams)
    f["first_ns"], f["last_ns"] = first, last
    return f


def main():
    out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    out.writerow(COLUMNS)
    for folder, fn in (("nsys", nsys_facts), ("rocprof", rocprof_facts)):
        for row in manifest(folder):
            f = fn(os.path.join(TRACES, folder, row["local_path"]))
            f["path"] = folder + "/" + row["local_path"]
            out.writerow([f[c] for c in COLUMNS])


if __name__ == "__main__":
    main()
