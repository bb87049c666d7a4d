#!/usr/bin/env python3
# Independent memory facts for the real traces with memory events in
# ../shared/traces: reads the raw events with the standard library
# only (JSON: json module; XSpace: the hand-written wire decoder of
# tests/data/xspace_facts.py, no Stepline code) and prints one TSV row per
# (trace, device). tests/analysis/memory_real_traces_test.cpp compares the
# loader + BuildMemoryTable + ComputeMemoryAnalysis against facts.tsv.
#
# Usage: memory_facts.py [TRACES_DIR] > facts.tsv
#
# Conventions:
# * Kineto JSON: events named "[memory]" are memory events, "[OutOfMemory]"
#   OOM markers. Device = (args "Device Type", "Device Id"); type 0 is "CPU",
#   1 (CUDA) and 6 (HIP) are "GPU <id>". Bytes >= 0 is an allocation, < 0 a free.
#   peak_allocated = max "Total Allocated"; peak_reserved = max "Total
#   Reserved" (-1 when absent). Without any "Total Allocated" the device is
#   relative: peak = max running sum of Bytes in (ts, Ev Idx) order.
# * XSpace: events named MemoryAllocation / MemoryDeallocation on "/host:CPU".
#   Device = "GPU <n>" for allocator_name "GPU_<n>_bfc", "CPU" for "cpu", the
#   allocator name otherwise, "TPU <index_on_host>" without allocator_name.
#   peak_allocated = max bytes_allocated; peak_reserved = -1 (XSpace records
#   no cache level); allocations / frees = event counts.
import gzip
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import xspace_facts as xs  # noqa: E402

KINETO = [
    "memory/h100_Qwen1.5-0.5B-Chat.json.gz",
    "memory/mi300_Qwen1.5-0.5B-Chat.json.gz",
    "tracelens/h100_bert-small-uncased.json.gz",
    "tracelens/h100_google_owlv2-large-patch14-ensemble.json.gz",
    "tracelens/vllm_decode_full_graph_capture_rank_0.pt.trace.json.gz",
    "hta/df_index_resolver_df_index_resolver.json.gz",
]
XSPACE = [
    "xprof/tpu_inference_2.xplane.pb",
    "xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb",
]


def kineto_name(dtype, did):
    if dtype == 0:
        return "CPU"
    if dtype in (1, 6):
        return "GPU %d" % did
    return "type%d %d" % (dtype, did)


def kineto_rows(path):
    with open(path, "rb") as f:
        opener = gzip.open if f.read(2) == b"\x1f\x8b" else open
    with opener(path, "rt") as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    dev = {}
    for e in events:
        if e.get("name") != "[memory]":
            continue
        a = e.get("args", {})
        key = kineto_name(int(a.get("Device Type", 1)), int(a.get("Device Id", 0)))
        d = dev.setdefault(key, {"alloc": [], "res": [], "ev": [], "allocs": 0, "frees": 0})
        b = int(a.get("Bytes", 0))
        d["allocs" if b >= 0 else "frees"] += 1
        if "Total Allocated" in a:
            d["alloc"].append(int(a["Total Allocated"]))
        if "Total Reserved" in a:
            d["res"].append(int(a["Total Reserved"]))
        d["ev"].append((float(e["ts"]), int(a.get("Ev Idx", 0)), b))
    rows = []
    for key, d in dev.items():
        if d["alloc"]:
            peak, relative = max(d["alloc"]), 0
        else:
            run, peak, relative = 0, None, 1
            for _, _, b in sorted(d["ev"]):
                run += b
                peak = run if peak is None else max(peak, run)
        res = max(d["res"]) if d["res"] else -1
        rows.append((key, peak, res, relative, d["allocs"], d["frees"]))
    return rows


def xspace_rows(path):
    b = open(path, "rb").read()
    planes = [xs.plane(b, v) for f, w, v in xs.fields(b, 0, len(b)) if f == 1]
    dev = {}
    for p in planes:
        if p["name"] != "/host:CPU":
            continue
        for line in p["lines"]:
            for e in line["events"]:
                name = p["em"].get(e["md"], ("", []))[0]
                if name not in ("MemoryAllocation", "MemoryDeallocation"):
                    continue
                st = xs.event_stats(p, e)
                alloc = st.get("allocator_name", ("str", None))[1]
                if alloc is None:
                    key = "TPU %d" % st.get("index_on_host", ("int", 0))[1]
                elif alloc.startswith("GPU_") and alloc.split("_")[1].isdigit():
                    key = "GPU %s" % alloc.split("_")[1]
                elif alloc == "cpu":
                    key = "CPU"
                else:
                    key = alloc
                d = dev.setdefault(key, {"peak": None, "allocs": 0, "frees": 0})
                d["allocs" if name == "MemoryAllocation" else "frees"] += 1
                v = st["bytes_allocated"][1]
                d["peak"] = v if d["peak"] is None else max(d["peak"], v)
    return [(k, d["peak"], -1, 0, d["allocs"], d["frees"]) for k, d in dev.items()]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "STEPLINE_TRACES", os.path.join(here, "..", "..", "..", "..", "shared", "traces"))
    print("path\tdevice\tpeak_allocated\tpeak_reserved\trelative\tallocations\tfrees")
    for rel in KINETO + XSPACE:
        full = os.path.join(root, rel)
        if not os.path.exists(full):
            print("missing " + full, file=sys.stderr)
            continue
        rows = kineto_rows(full) if rel in KINETO else xspace_rows(full)
        for r in sorted(rows):
            print("\t".join([rel] + [str(x) for x in r]))


if __name__ == "__main__":
    main()
