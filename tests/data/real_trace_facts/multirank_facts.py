#!/usr/bin/env python3
"""Facts of the shared multi-rank runs (../shared/traces/multirank/), straight from the raw Kineto JSON,
for tests/analysis/ranks_real_traces_test.cpp. Standard library only; shares no code with Stepline.

For each run folder, one row per rank file (sorted by distributedInfo.rank):
  run, rank, world_size, nccl kernels by collective (name between `ncclKernel_`/`ncclDevKernel_` and the next `_`),
  clock_offset_ns, late_ns, steps, step_mean_ns
and one summary row per run: matched, unmatched, missing ranks count, straggler rank (or -1).

Definitions (the ranks analysis's, docs/analysis.md, computed independently here):
  - GPU collective kernels: events with cat "kernel" whose name starts with "nccl"; time in ns = ts*1000 exactly
    (ts parsed as decimals).
  - instance key: (collective name, ordinal of that name on the rank); matched when every rank file has it.
  - offset of rank r: median over matched instances of end_r - end_ref, ref = lowest rank (median of an even
    count: lower middle + (upper - lower) // 2, i.e. floor of the mean of the two middles).
  - arrival = start - offset; late = mean over matched instances of (arrival - median arrival), floor division
    toward zero as C++ does (int64 / int64).
  - steps: ProfilerStep#N host events; step mean = floor(sum of durations / steps).
  - straggler: largest late when late * 20 > its step mean, else -1.
Usage: python3 multirank_facts.py [TRACES_DIR]  (default ../shared/traces relative to the repository root)
"""
import gzip
import json
import os
import sys
from decimal import Decimal


def ns(x):
    return int(Decimal(str(x)) * 1000) if not isinstance(x, Decimal) else int(x * 1000)


def median(v):
    v = sorted(v)
    if not v:
        return 0
    m = len(v) // 2
    if len(v) % 2:
        return v[m]
    lo, hi = v[m - 1], v[m]
    d = hi - lo
    return lo + int(d / 2) if d >= 0 else lo - int(-d / 2)


def cdiv(a, b):  # C++ integer division (toward zero)
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def collective(name):
    for p in ("ncclDevKernel_", "ncclKernel_"):
        if name.startswith(p):
            return name[len(p):].split("_")[0].split("(")[0]
    return name.split("(")[0]


def load(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        d = json.load(f, parse_float=Decimal)
    info = d.get("distributedInfo", {})
    kernels, steps = [], []
    for e in d["traceEvents"]:
        if e.get("ph") != "X":
            continue
        name = e.get("name", "")
        if e.get("cat") == "kernel" and name.startswith("nccl"):
            s = ns(e["ts"])
            kernels.append((s, s + ns(e["dur"]), collective(name)))
        if name.startswith("ProfilerStep#") and e.get("cat") in ("user_annotation", "cpu_op"):
            steps.append(ns(e["dur"]))
    kernels.sort()
    return int(info.get("rank", -1)), int(info.get("world_size", -1)), kernels, steps


def run(folder):
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if ".json" in f)
    ranks = sorted(load(f) for f in files)
    keyed = []
    for _, _, kernels, _ in ranks:
        seen, keys = {}, {}
        for k in kernels:
            o = seen.get(k[2], 0)
            seen[k[2]] = o + 1
            keys[(k[2], o)] = k
        keyed.append(keys)
    common = set(keyed[0])
    for k in keyed[1:]:
        common &= set(k)
    unmatched = sum(len(k) - len(common) for k in keyed)
    common = sorted(common, key=lambda key: keyed[0][key][0])
    offsets = [median([keyed[r][key][1] - keyed[0][key][1] for key in common]) if r else 0 for r in range(len(ranks))]
    late = [0] * len(ranks)
    for key in common:
        arr = [keyed[r][key][0] - offsets[r] for r in range(len(ranks))]
        m = median(arr)
        for r in range(len(ranks)):
            late[r] += arr[r] - m
    late = [cdiv(v, len(common)) for v in late] if common else late
    name = os.path.basename(folder)
    worst, out = 0, []
    for i, (rank, world, kernels, steps) in enumerate(ranks):
        counts = {}
        for k in kernels:
            counts[k[2]] = counts.get(k[2], 0) + 1
        mean = sum(steps) // len(steps) if steps else 0
        out.append(f"{name}\t{rank}\t{world}\t{','.join(f'{c}:{n}' for c, n in sorted(counts.items()))}\t"
                   f"{offsets[i]}\t{late[i]}\t{len(steps)}\t{mean}")
        if late[i] > late[worst]:
            worst = i
    wmean = sum(ranks[worst][3]) // len(ranks[worst][3]) if ranks[worst][3] else 0
    straggler = ranks[worst][0] if late[worst] > 0 and late[worst] * 20 > wmean else -1
    missing = ranks[0][1] - len(ranks) if ranks[0][1] > 0 else 0
    out.append(f"{name}\tsummary\tmatched={len(common)}\tunmatched={unmatched}\tmissing={missing}\tstraggler={straggler}")
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../../shared/traces")
    print("run\trank\tworld_size\tnccl_kernels\tclock_offset_ns\tlate_ns\tsteps\tstep_mean_ns")
    for name in ("param_dlrm_8rank", "hta_sampled_2of128"):
        for line in run(os.path.join(root, "multirank", name)):
            print(line)


if __name__ == "__main__":
    main()
