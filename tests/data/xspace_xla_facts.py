#!/usr/bin/env python3
"""Independent XLA-device facts of an XSpace file, for tests/loaders/xspace_xla_test.cpp.

Uses the hand-written wire decoder of xspace_facts.py (no protobuf library, no Stepline
code), so the busy time and module counts asserted by the C++ tests come from a second
implementation:

    python3 tests/data/xspace_xla_facts.py ../shared/traces/xprof/tpu_inference_2.xplane.pb

Rules (what the numbers mean):
  * device = plane "/device:TPU:<n>"; its ops = the events of its line named "XLA Ops";
  * ns of an event = floor(end_ps / 1000) - floor(start_ps / 1000) (xspace_facts.ns);
  * busy_ns = length of the union of the ops with a positive duration, except the halves of
    an async copy (copy-start / copy-done by the name's opcode: the wait for a copy, not
    compute); span_ns = first .. last end of those ops; busy_pct = 100 * busy / span;
    copy_ns = the union of the copy-start / copy-done ops alone;
  * modules = events of the "XLA Modules" line by name: executions and summed ns; the top
    module = the most summed ns among those executed at least twice.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xspace_facts as X  # noqa: E402


def union_ns(intervals):
    total, cur = 0, None
    for s, t in sorted(intervals):
        if cur is None or s > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [s, t]
        else:
            cur[1] = max(cur[1], t)
    return total + (cur[1] - cur[0] if cur else 0)


def main(path):
    b = open(path, "rb").read()
    planes = [X.plane(b, v) for f, w, v in X.fields(b, 0, len(b)) if f == 1]
    for p in planes:
        if not p["name"].startswith("/device:TPU:"):
            continue
        ops, copies, modules = [], [], collections.defaultdict(lambda: [0, 0])
        for line in p["lines"]:
            for e in line["events"]:
                s, t = X.ns(line, e)
                if line["name"] == "XLA Ops" and t > s:
                    name = p["em"][e["md"]][0]
                    opcode = name.split(" = ")[0].lstrip("%").split(".")[0]
                    is_copy = opcode.startswith("copy-start") or opcode.startswith("copy-done")
                    (copies if is_copy else ops).append((s, t))
                if line["name"] == "XLA Modules":
                    m = modules[p["em"][e["md"]][0]]
                    m[0] += 1
                    m[1] += t - s
        busy = union_ns(ops)
        span = max(t for s, t in ops) - min(s for s, t in ops)
        top = max((m for m in modules.items() if m[1][0] >= 2), key=lambda m: m[1][1])
        print("device", p["name"].split(":")[-1], "ops", len(ops), "busy_ns", busy, "span_ns", span,
              "busy_pct %.2f" % (100.0 * busy / span), "copies", len(copies), "copy_ns", union_ns(copies),
              "top_module", top[0], "executions", top[1][0])


if __name__ == "__main__":
    main(sys.argv[1])
