#!/usr/bin/env python3
"""Writes the synthetic PyTorch memory snapshots the loader tests read.

    make_snapshots.py OUT_DIR

OUT_DIR/small_p{2,3,4,5}.pickle: one snapshot (the dict
torch.cuda.memory._snapshot() returns) pickled at each protocol, frames
shared between entries as PyTorch shares them; small_p4.pickle.gz: the same,
gzip-compressed; no_times.pickle: entries without time_us. The expected
figures are in memory_snapshot_test.cpp, next to the checks.
"""
import gzip
import os
import pickle
import sys


def frame(name, filename, line):
    return {"name": name, "filename": filename, "line": line}


MAIN = frame("main", "train.py", 10)
MODEL = frame("forward", "model.py", 42)
LINEAR = frame("linear", "torch/nn/functional.py", 2100)
INIT = frame("init_weights", "model.py", 7)

SEG0 = 0x7F0000000000
PRE = 0x7D0000000000


def snapshot(times=True):
    def ev(action, addr, size, t, frames):
        e = {"action": action, "addr": addr, "size": size, "stream": 0, "frames": frames}
        if times:
            e["time_us"] = 1759252584000000 + t
        return e

    trace0 = [
        ev("segment_alloc", SEG0, 2 << 20, 0, [MAIN]),
        ev("alloc", SEG0, 1024, 1, [MODEL, MAIN]),
        ev("alloc", SEG0 + 0x400, 4096, 2, [LINEAR, MODEL, MAIN]),
        ev("free_requested", SEG0, 1024, 3, [MAIN]),
        ev("free_completed", SEG0, 1024, 4, [MAIN]),
        ev("alloc", SEG0 + 0x1400, 512, 5, [LINEAR, MODEL, MAIN]),
        ev("free_completed", 0x7E0000000000, 256, 6, []),  # allocated before the capture
        ev("oom", 0, 1 << 30, 7, [LINEAR, MAIN]),
        ev("snapshot", 0, 0, 8, []),
    ]
    segments = [
        {"device": 0, "address": SEG0, "total_size": 2 << 20, "allocated_size": 4608, "stream": 0,
         "segment_type": "large", "frames": [MAIN],
         "blocks": [
             {"address": SEG0, "size": 1024, "requested_size": 1024, "state": "inactive", "frames": []},
             {"address": SEG0 + 0x400, "size": 4096, "requested_size": 4000, "state": "active_allocated",
              "frames": [LINEAR, MODEL, MAIN]},
             {"address": SEG0 + 0x1400, "size": 512, "requested_size": 512, "state": "active_allocated",
              "frames": [LINEAR, MODEL, MAIN]},
         ]},
        {"device": 0, "address": PRE, "total_size": 1 << 20, "allocated_size": 8192, "stream": 0,
         "segment_type": "large", "frames": [],
         "blocks": [{"address": PRE, "size": 8192, "requested_size": 8192, "state": "active_allocated",
                     "frames": [INIT, MAIN]}]},
        {"device": 1, "address": 0x7C0000000000, "total_size": 4 << 20, "allocated_size": 1000, "stream": 0,
         "segment_type": "large", "frames": [],
         "blocks": [{"address": 0x7C0000000000, "size": 1000, "state": "active_allocated", "frames": []}]},
    ]
    return {"segments": segments, "device_traces": [trace0, []], "allocator_settings": {"expandable": False}}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for protocol in (2, 3, 4, 5):
        with open(os.path.join(out, f"small_p{protocol}.pickle"), "wb") as f:
            pickle.dump(snapshot(), f, protocol=protocol)
    with gzip.open(os.path.join(out, "small_p4.pickle.gz"), "wb") as f:
        pickle.dump(snapshot(), f, protocol=4)
    with open(os.path.join(out, "no_times.pickle"), "wb") as f:
        pickle.dump(snapshot(times=False), f, protocol=4)


if __name__ == "__main__":
    main()
