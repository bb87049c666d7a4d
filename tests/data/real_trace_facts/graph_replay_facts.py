#!/usr/bin/env python3
# Independent counter of CUDA / HIP graph replays in the shared traces that
# mention graphs, from the raw files with the standard library only. Its
# output (graph_replay_facts.tsv next to this script) is what
# tests/analysis/graph_replays_real_test.cpp asserts against the analysis.
#
# Usage: graph_replay_facts.py [TRACES_DIR] > graph_replay_facts.tsv
#   TRACES_DIR defaults to $STEPLINE_TRACES, else <repo>/../shared/traces.
#
# Kineto JSON: a graph launch is an X event whose name starts with
# cudaGraphLaunch / cuGraphLaunch / hipGraphLaunch; its replay's nodes are the
# GPU activities (cat kernel, gpu_memcpy, gpu_memset) with the same
# args.correlation. Graphs: replays whose nodes (in the order the loader keeps
# them: by stream, then start) have the same names are one graph. Graph idle:
# on each device, the holes of the union of its kernels (cat kernel); a hole is
# `graph` when the kernel starting at its end is a node of a replay whose first
# node started before the hole. Kernels starting at the same time are taken in
# stream order, as the analysis takes them (its streams' order; in
# hta/trace_diff_test the one such tie is between streams 7 and 14, a 1 us
# graph node and a 17 us plain kernel, and the lower stream comes first).
# Times: ts/dur in microseconds, converted to ns as the loader does (each
# value rounded to the nearest ns, half away from zero).
#
# rocprofv3 JSON: graph launches would be hip_api buffer records; the file's
# kernel_dispatch records carry no graph fields and hip_api is empty, so the
# row says how many kernel dispatch records there are and that no replay exists.
import gzip
import json
import os
import sys
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal

KINETO = ["hta/trace_diff_test_test.json.gz",
          "tracelens/vllm_decode_full_graph_capture_rank_0.pt.trace.json.gz"]
ROCPROF = ["rocprof/rocprofv3_908_results.json.gz"]
PREFIXES = ("cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch")
GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}


def ns(v):
    return int((Decimal(str(v)) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def load(path):
    with gzip.open(path, "rb") as f:
        return json.loads(f.read())


def kineto_row(rel, path):
    events = load(path)["traceEvents"]
    launches = {}
    for e in events:
        if e.get("ph") == "X" and str(e.get("name", "")).startswith(PREFIXES):
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                launches[corr] = e
    nodes = defaultdict(list)  # correlation -> [(stream key, start_ns, -dur_ns, name, cat)]
    kernels = defaultdict(list)  # device -> [(start_ns, -dur_ns, correlation)]
    for e in events:
        cat = str(e.get("cat", "")).lower()
        if e.get("ph") != "X" or cat not in GPU_CATS:
            continue
        args = e.get("args") or {}
        start, dur = ns(e["ts"]), ns(e.get("dur", 0))
        if cat == "kernel":
            kernels[args.get("device", e.get("pid"))].append((start, int(args.get("stream", 0)), args.get("correlation"), dur))
        corr = args.get("correlation")
        if corr in launches:
            nodes[corr].append(((str(e.get("pid")), str(e.get("tid"))), start, -dur, e.get("name"), cat))
    replays = {}  # correlation -> first node start
    signatures = set()
    node_count = kernel_nodes = 0
    sizes = set()
    for corr, ns_list in nodes.items():
        ns_list.sort()
        replays[corr] = min(n[1] for n in ns_list)
        signatures.add(tuple(n[3] for n in ns_list))
        node_count += len(ns_list)
        kernel_nodes += sum(1 for n in ns_list if n[4] == "kernel")
        sizes.add(len(ns_list))
    graph_ns = graph_gaps = 0
    primary = max(kernels, key=lambda d: sum(k[3] for k in kernels[d])) if kernels else None
    if primary is not None:
        ks = sorted(kernels[primary], key=lambda k: (k[0], k[1]))
        end = None
        for start, _stream, corr, dur in ks:
            if end is not None and start > end:
                if corr in replays and replays[corr] < end:
                    graph_ns += start - end
                    graph_gaps += 1
            end = start + dur if end is None else max(end, start + dur)
    return [rel, len(launches), len(replays), node_count, kernel_nodes, len(signatures),
            ",".join(str(s) for s in sorted(sizes)) or "-", graph_gaps, graph_ns]


def rocprof_row(rel, path):
    tool = load(path)["rocprofiler-sdk-tool"][0]
    records = tool["buffer_records"]
    dispatches = records.get("kernel_dispatch", [])
    hip = [r for r in records.get("hip_api", [])]
    names = {}
    for kind in tool["strings"]["buffer_records"]:
        if kind["kind"] == "HIP_RUNTIME_API":
            names = {i: op for i, op in enumerate(kind["operations"])}
    launches = sum(1 for r in hip if str(names.get(r.get("operation"), "")).startswith(PREFIXES))
    graph_fields = sum(1 for r in dispatches for k in r if "graph" in k.lower())
    assert graph_fields == 0, "rocprof dispatch records with graph fields: teach the script to count them"
    return [rel, launches, 0, 0, 0, 0, "-", 0, 0]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "STEPLINE_TRACES", os.path.join(os.path.dirname(__file__), "../../../../shared/traces"))
    print("path\tgraph_launches\treplays\tnodes\tkernel_nodes\tgraphs\treplay_sizes\tgraph_gaps\tgraph_idle_ns")
    for rel in KINETO:
        print("\t".join(str(c) for c in kineto_row(rel, os.path.join(root, rel))))
    for rel in ROCPROF:
        print("\t".join(str(c) for c in rocprof_row(rel, os.path.join(root, rel))))


if __name__ == "__main__":
    main()
