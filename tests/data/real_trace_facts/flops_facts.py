#!/usr/bin/env python3
"""Matmul-family FLOPs of the shared Kineto traces, counted from the raw events.

For tests/analysis/efficiency_real_traces_test.cpp: an independent count, written
from the formulas in docs/analysis.md ("Efficiency"), not from the C++ code.

For every kineto-json trace under ../shared/traces/{kineto,hta,tracelens} that
records `Input Dims`, and for each op name of the matmul family (aten::mm,
addmm, bmm, baddbmm, matmul, linear, _scaled_mm), it sums 2*M*K*N over the
complete events ("ph":"X") of that name whose Input Dims determine M, K, N,
and prints one row: trace, op, instances with a count, summed FLOPs (integer).
Rows only for (trace, op) pairs with at least one counted instance.

Usage: python3 flops_facts.py [SHARED_TRACES_DIR] > flops_facts.tsv
"""
import gzip
import json
import os
import sys

FOLDERS = ("kineto", "hta", "tracelens")
FAMILY = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
          "aten::_scaled_mm")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def is_tensor(d, rank=None):
    return isinstance(d, list) and len(d) > 0 and all(isinstance(x, int) for x in d) and (
        rank is None or len(d) == rank)


def flops(name, dims):
    """2*M*K*N for one event, or None when its shapes do not determine it."""
    def arg(i, rank=None):
        return dims[i] if i < len(dims) and is_tensor(dims[i], rank) else None
    if name in ("aten::mm", "aten::_scaled_mm"):
        a, b = arg(0, 2), arg(1, 2)
        return None if a is None or b is None else 2 * a[0] * a[1] * b[1]
    if name == "aten::addmm":
        a, b = arg(1, 2), arg(2, 2)
        return None if a is None or b is None else 2 * a[0] * a[1] * b[1]
    if name == "aten::bmm":
        a, b = arg(0, 3), arg(1, 3)
        return None if a is None or b is None else 2 * a[0] * a[1] * a[2] * b[2]
    if name == "aten::baddbmm":
        a, b = arg(1, 3), arg(2, 3)
        return None if a is None or b is None else 2 * a[0] * a[1] * a[2] * b[2]
    if name == "aten::linear":
        x, w = arg(0), arg(1, 2)
        return None if x is None or w is None else 2 * prod(x) * w[0]
    if name == "aten::matmul":
        a, b = arg(0), arg(1)
        if a is None or b is None:
            return None
        m = a[-2] if len(a) >= 2 else 1
        n = b[-1] if len(b) >= 2 else 1
        k = a[-1]
        ab, bb = a[:-2], b[:-2]
        batch = 1
        for i in range(max(len(ab), len(bb))):
            x = ab[len(ab) - 1 - i] if i < len(ab) else 1
            y = bb[len(bb) - 1 - i] if i < len(bb) else 1
            batch *= max(x, y)
        return 2 * batch * m * k * n
    return None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../../../shared/traces")
    print("trace\top\tcounted\tflops")
    for folder in FOLDERS:
        directory = os.path.join(root, folder)
        for file in sorted(os.listdir(directory)):
            if not file.endswith(".json.gz") and not file.endswith(".json"):
                continue
            path = os.path.join(directory, file)
            opener = gzip.open if file.endswith(".gz") else open
            with opener(path, "rt", encoding="utf-8") as f:
                try:
                    doc = json.load(f)
                except ValueError:
                    continue
            events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
            sums = {}
            for e in events:
                if not isinstance(e, dict) or e.get("ph") != "X" or e.get("name") not in FAMILY:
                    continue
                dims = (e.get("args") or {}).get("Input Dims")
                if not isinstance(dims, list):
                    continue
                n = flops(e["name"], dims)
                if n is None:
                    continue
                c, s = sums.get(e["name"], (0, 0))
                sums[e["name"]] = (c + 1, s + n)
            for op in sorted(sums):
                print(f"{folder}/{file}\t{op}\t{sums[op][0]}\t{sums[op][1]}")


if __name__ == "__main__":
    main()
