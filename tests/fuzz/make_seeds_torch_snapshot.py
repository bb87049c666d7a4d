#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_torch_snapshot (corpus/torch_snapshot/):
the synthetic snapshot of tests/data/memory_snapshots/make_snapshots.py at
each pickle protocol, the same in batches of two (so small seeds reach the
reader's fast path), one without times, one with every action and a float
time, and the first device trace entries of the shared public sample. Run
once by hand; the output is committed.
   tests/fuzz/make_seeds_torch_snapshot.py [TRACES_DIR]   (default ../shared/traces)"""
import os
import pickle
import sys

from make_seeds import write  # same corpus layout

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "memory_snapshots"))
import make_snapshots  # noqa: E402

TRACES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "traces")


def main():
    for protocol in (2, 3, 4, 5):
        write("torch_snapshot", f"small_p{protocol}.pickle", pickle.dumps(make_snapshots.snapshot(), protocol=protocol))
    write("torch_snapshot", "no_times.pickle", pickle.dumps(make_snapshots.snapshot(times=False), protocol=4))
    for protocol in (2, 4):  # lists in batches of two: the reader's fast path from each list's second batch
        write("torch_snapshot", f"small_batched_p{protocol}.pickle",
              make_snapshots.batched_dumps(make_snapshots.snapshot(), protocol))
    frame = {"name": "f", "filename": "a.py", "line": 1}
    actions = ["segment_alloc", "alloc", "free_requested", "free_completed", "segment_map", "segment_unmap",
               "segment_free", "oom", "snapshot", "unknown_action"]
    every = {"segments": [], "device_traces": [[], [
        {"action": a, "addr": 0x7F0000000000 + i, "size": 4096, "stream": 0, "time_us": 1.0e15 + i * 0.5,
         "frames": [frame]} for i, a in enumerate(actions)]]}
    write("torch_snapshot", "every_action.pickle", pickle.dumps(every, protocol=2))
    sample = os.path.join(TRACES, "memory_snapshots", "mosaic_output.pickle")
    if os.path.exists(sample):
        with open(sample, "rb") as f:
            snap = pickle.load(f)
        snap["device_traces"] = [t[:40] for t in snap["device_traces"]]
        snap["segments"] = snap["segments"][:2]
        write("torch_snapshot", "mosaic_head.pickle", pickle.dumps(snap, protocol=4))


if __name__ == "__main__":
    main()
