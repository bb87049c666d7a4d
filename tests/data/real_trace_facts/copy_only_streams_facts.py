#!/usr/bin/env python3
# Independent facts for the copy-only GPU streams of two shared Kineto traces
# (../shared/traces, or $STEPLINE_TRACES): reads the raw events with the
# standard library only and prints one TSV row per GPU stream. Its output
# (copy_only_streams_facts.tsv) is what tests/ui/copy_only_streams_test.cpp
# asserts against the timeline's CopyRows::CopiesOnly.
#
# Rules, from the Kineto format (../shared/docs/trace-formats.md), not from
# our code: a GPU activity is a complete ('X') event whose category is, case
# folded, "kernel" (a kernel), or "memcpy" / "gpu_memcpy" / "memset" /
# "gpu_memset" (a copy or memset); its stream is its (pid, tid). A stream is
# copies-only when it has copies or memsets and no kernel.
# Columns: path, pid, tid, kernels, copies (memcpy + memset), copies_only.
import gzip
import json
import os
import sys

TRACES = ["kineto/resnet50_autograd_api_num_workers_0__worker0.pt.trace.json.gz",
          "hta/trace_diff_control_control.json.gz"]
KERNEL = {"kernel"}
COPY = {"memcpy", "gpu_memcpy", "memset", "gpu_memset"}


def main():
    root = os.environ.get("STEPLINE_TRACES") or os.path.join(os.path.dirname(__file__), "../../../../shared/traces")
    print("path\tpid\ttid\tkernels\tcopies\tcopies_only")
    for rel in TRACES:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            print("missing " + path, file=sys.stderr)
            continue
        with gzip.open(path, "rt") as f:
            data = json.load(f)
        events = data["traceEvents"] if isinstance(data, dict) else data
        streams = {}
        for e in events:
            if e.get("ph") != "X":
                continue
            cat = str(e.get("cat", "")).lower()
            if cat not in KERNEL and cat not in COPY:
                continue
            counts = streams.setdefault((str(e.get("pid")), str(e.get("tid"))), [0, 0])
            counts[0 if cat in KERNEL else 1] += 1
        for (pid, tid), (kernels, copies) in sorted(streams.items()):
            only = 1 if copies > 0 and kernels == 0 else 0
            print(f"{rel}\t{pid}\t{tid}\t{kernels}\t{copies}\t{only}")


if __name__ == "__main__":
    main()
