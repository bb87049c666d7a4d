#!/usr/bin/env python3
"""Writes the synthetic PyTorch memory snapshots the loader tests read.

    make_snapshots.py OUT_DIR

OUT_DIR/small_p{2,3,4,5}.pickle: one snapshot (the dict
torch.cuda.memory._snapshot() returns) pickled at each protocol, frames
shared between entries as PyTorch shares them; small_p4.pickle.gz: the same,
gzip-compressed; no_times.pickle: entries without time_us. The expected
figures are in memory_snapshot_test.cpp, next to the checks.

A trace and a snapshot of one run, to open together (snapshot_pair_test.cpp):
pair_snapshot.pickle and three Kineto JSON traces of the same three steps,
pair_trace.json (times relative to baseTimeNanoseconds, as Kineto writes
since 2024), pair_trace_epoch.json (epoch microseconds, the older form) and
pair_trace_no_clock.json (relative times without their base: no epoch clock);
late_snapshot.pickle, the pair's snapshot an hour after the trace.

small_batched_p{2,4}.pickle: the small snapshot with lists in batches of two
(the reader's fast path reads from each list's second batch on);
mixed_p{2,4,5}.pickle: 5,000 entries of every shape that path takes or
leaves (see mixed_snapshot()).
"""
import gzip
import io
import json
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


def batched_dumps(obj, protocol, batch=2):
    """pickle.dumps with lists and dicts in batches of `batch` items instead
    of 1,000 (Python's own pickler, the pure-Python one, whose batch size is
    a class attribute): small files whose device traces reach the reader's
    fast path, which starts at a list's second batch."""
    class Batched(pickle._Pickler):
        _BATCHSIZE = batch

    buf = io.BytesIO()
    Batched(buf, protocol=protocol).dump(obj)
    return buf.getvalue()


def mixed_snapshot():
    """5,000 entries in every shape the reader's fast path meets or leaves to
    the opcode loop (snapshot_fast_path_test.cpp reads each both ways): frames
    shared through the memo, then new frame dicts for the last fifth, single-frame and
    empty frame lists, a fresh string per entry, float and missing times,
    addresses past 32 bits, a negative and a huge (LONG1) size, None and
    bool values, and a nested dict. Two devices, in batches of 1,000."""
    shared = [frame(f"fn_{k}", f"mod_{k % 7}.py", k + 1) for k in range(40)]
    entries = ([], [])
    for i in range(5000):
        if i < 4000:
            frames = [shared[(i + j) % 40] for j in range(i % 5)]
        else:  # new dicts from here: the fast path leaves each first use to the loop
            frames = [frame(f"late_{i % 300}", "late.py", i % 300)] + [shared[i % 40]]
        e = {"action": ("alloc", "free_requested", "free_completed", "segment_alloc")[i % 4],
             "addr": 0x7F0000000000 + 512 * (i // 4), "size": 512 + i, "stream": i % 3}
        if i % 11 != 0:
            e["time_us"] = 1759252584000000 + 3 * i if i % 7 else 1759252584000000.5 + 3 * i
        e["frames"] = frames
        if i % 13 == 0:
            e["compile_context"] = f"ctx {i}"  # a new string each time
        if i % 17 == 0:
            e["user_metadata"] = None if i % 2 else True
        if i % 997 == 0:
            e["size"] = -1 if i % 2 else 1 << 70
        if i == 4321:
            e["extra"] = {"nested": 1}
        entries[i % 2].append(e)
    return {"segments": [], "device_traces": list(entries)}


PAIR_US = 1759252584000000     # the pair's first step starts here, epoch microseconds
PAIR_LEAD_US = 5000            # the trace's base time is this much before it
MIB = 1 << 20


def pair_snapshot():
    """Three 10 ms steps: each allocates an activation (64, 64, then 96 MiB)
    at +1 ms and a workspace of 16 MiB at +3 ms, frees the workspace at +8 ms
    and the activation at +9 ms. The peak, 112 MiB, is step 3's from +3 ms to
    +8 ms: epoch 1759252584023000 us, 28 ms after the trace's base time."""
    entries = [{"action": "segment_alloc", "addr": SEG0, "size": 256 * MIB, "stream": 0, "time_us": PAIR_US,
                "frames": [MAIN]}]
    for k, activation in enumerate((64, 64, 96)):
        start = PAIR_US + 10000 * k
        act, work = SEG0, SEG0 + 128 * MIB
        for action, addr, size, at, frames in (("alloc", act, activation * MIB, 1000, [MODEL, MAIN]),
                                               ("alloc", work, 16 * MIB, 3000, [LINEAR, MODEL, MAIN]),
                                               ("free_completed", work, 16 * MIB, 8000, [LINEAR, MODEL, MAIN]),
                                               ("free_completed", act, activation * MIB, 9000, [MODEL, MAIN])):
            entries.append({"action": action, "addr": addr, "size": size, "stream": 0, "time_us": start + at,
                            "frames": frames})
    segments = [{"device": 0, "address": SEG0, "total_size": 256 * MIB, "allocated_size": 0, "stream": 0,
                 "segment_type": "large", "frames": [MAIN],
                 "blocks": [{"address": SEG0, "size": 256 * MIB, "state": "inactive", "frames": []}]}]
    return {"segments": segments, "device_traces": [entries]}


def late_snapshot():
    """The pair's snapshot an hour later: no overlap in time with the trace."""
    snap = pair_snapshot()
    for e in snap["device_traces"][0]:
        e["time_us"] += 3600 * 1000000
    return snap


def pair_trace(form):
    """The run's Kineto trace: three ProfilerStep#N of 10 ms, a kernel in each,
    and one memory event of its own (1 GiB, never freed) that the snapshot's
    events replace when both are opened."""
    base = PAIR_US - PAIR_LEAD_US  # epoch microseconds of the relative times' zero
    shift = base if form == "epoch" else 0
    events = [{"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}},
              {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}}]
    for k in range(3):
        start = PAIR_LEAD_US + 10000 * k + shift
        events += [
            {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{k + 1}", "pid": 100, "tid": 100,
             "ts": start, "dur": 10000},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, "tid": 100,
             "ts": start + 500, "dur": 20, "args": {"correlation": k + 1}},
            {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": start + 1000,
             "dur": 7000, "args": {"device": 0, "stream": 7, "correlation": k + 1}},
        ]
    events.append({"ph": "i", "s": "t", "name": "[memory]", "pid": 100, "tid": 100, "ts": PAIR_LEAD_US + 100 + shift,
                   "args": {"Device Type": 1, "Device Id": 0, "Addr": 0x7A0000000000, "Bytes": 1 << 30,
                            "Total Allocated": 1 << 30, "Total Reserved": 1 << 30}})
    trace = {"schemaVersion": 1, "traceEvents": events}
    if form == "base":
        trace["baseTimeNanoseconds"] = base * 1000
    return trace


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
    for protocol in (2, 4):
        with open(os.path.join(out, f"small_batched_p{protocol}.pickle"), "wb") as f:
            f.write(batched_dumps(snapshot(), protocol))
    for protocol in (2, 4, 5):
        with open(os.path.join(out, f"mixed_p{protocol}.pickle"), "wb") as f:
            pickle.dump(mixed_snapshot(), f, protocol=protocol)
    with open(os.path.join(out, "pair_snapshot.pickle"), "wb") as f:
        pickle.dump(pair_snapshot(), f, protocol=4)
    with open(os.path.join(out, "late_snapshot.pickle"), "wb") as f:
        pickle.dump(late_snapshot(), f, protocol=4)
    for form, name in (("base", "pair_trace.json"), ("epoch", "pair_trace_epoch.json"),
                       ("no_clock", "pair_trace_no_clock.json")):
        with open(os.path.join(out, name), "w") as f:
            json.dump(pair_trace(form), f)


if __name__ == "__main__":
    main()
