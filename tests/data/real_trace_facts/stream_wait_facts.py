#!/usr/bin/env python3
# Independent facts on the event waits of HTA's two event-synchronization
# test traces (../shared/traces, or $STEPLINE_TRACES): reads the raw events
# with the standard library only and prints one TSV row per cuda_sync event
# that names a wait. Its output (stream_wait_facts.tsv) is what
# tests/analysis/critical_path_waits_test.cpp asserts against
# BuildStreamWaits.
#
# Rules, from CUDA's semantics and Kineto's cuda_sync args, not from our code:
#   - a cuda_sync event's runtime call is the cuda_runtime event with the same
#     `correlation` arg;
#   - a GPU op (cat kernel, gpu_memcpy, gpu_memset) is enqueued when its
#     runtime call (same correlation) starts;
#   - an event recorded by the cudaEventRecord call whose correlation is
#     `wait_on_cuda_event_record_corr_id` covers the op of `wait_on_stream`
#     enqueued last before that call started;
#   - "Event Sync": the runtime call waits for that op;
#   - "Stream Wait Event": the first op enqueued on `stream` after the
#     cudaStreamWaitEvent call started waits for it;
#   - "Stream Sync": the call waits for the ops of `stream`.
# Events with -1 for the record's correlation or stream are skipped.
# Columns: path, kind, call, call_correlation, waited_correlation (-1 for
# Stream Sync), waited_name, waiting_correlation (-1 unless Stream Wait
# Event), stream (the synchronized stream for Stream Sync, else -1).
import gzip
import json
import os

TRACES = ["hta/critical_path_cuda_event_sync_event_sync_trace.json.gz",
          "hta/critical_path_cuda_event_sync_multi_stream_event_sync_trace.json.gz"]
OPS = {"kernel", "gpu_memcpy", "gpu_memset"}


def facts(path):
    with gzip.open(path, "rt") as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("ph") == "X"]
    runtime = {}
    for e in events:
        if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {}):
            runtime[e["args"]["correlation"]] = e
    ops = {}  # stream -> [(enqueued_ts, correlation, name)]
    for e in events:
        if e.get("cat") in OPS:
            a = e["args"]
            call = runtime.get(a["correlation"])
            enq = call["ts"] if call else e["ts"]
            ops.setdefault(a["stream"], []).append((enq, a["correlation"], e["name"]))
    for v in ops.values():
        v.sort()
    rows = []
    for e in sorted((e for e in events if e.get("cat") == "cuda_sync"), key=lambda e: e["ts"]):
        a = e["args"]
        kind = a.get("cuda_sync_kind", e["name"])
        call = runtime.get(a["correlation"])
        if call is None:
            continue
        if kind == "Stream Sync":
            rows.append((kind, call["name"], a["correlation"], -1, "", -1, a["stream"]))
            continue
        if kind not in ("Event Sync", "Stream Wait Event"):
            continue
        record = runtime.get(a.get("wait_on_cuda_event_record_corr_id", -1))
        on = a.get("wait_on_stream", -1)
        if record is None or on == -1:
            continue
        before = [o for o in ops.get(on, []) if o[0] < record["ts"]]
        if not before:
            continue
        waited = before[-1]
        waiting = -1
        if kind == "Stream Wait Event":
            after = [o for o in ops.get(a["stream"], []) if o[0] > call["ts"]]
            if not after:
                continue
            waiting = after[0][1]
        rows.append((kind, call["name"], a["correlation"], waited[1], waited[2], waiting, -1))
    return rows


def main():
    root = os.environ.get("STEPLINE_TRACES") or os.path.join(os.path.dirname(__file__), "../../../../shared/traces")
    print("path\tkind\tcall\tcall_correlation\twaited_correlation\twaited_name\twaiting_correlation\tstream")
    for rel in TRACES:
        for row in facts(os.path.join(root, rel)):
            print("\t".join([rel] + [str(x) for x in row]))


if __name__ == "__main__":
    main()
