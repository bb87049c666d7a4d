#!/usr/bin/env python3
"""Facts about a PyTorch memory snapshot, computed with Python's own pickle
module, independently of Stepline's reader, for the real-trace test.

    snapshot_facts.py SNAPSHOT.pickle > facts.tsv

The figures follow the mapping docs/memory-snapshots.md describes: per
device, allocated starts at what the capture frees without allocating it,
blocks live in `segments` but never allocated in the capture count as
allocated before it, and reserved starts at the segments' total size minus
what the capture's segment events add. Events are ordered by time, then by
their place in the device trace. Only plain dicts, lists, ints and strings
are expected; pickle.load is used because the input is the committed-to
sample, not a file from an unknown source.
"""
import collections
import pickle
import sys


def label(frames):
    if not frames:
        return ""
    f = frames[0]
    return f"{f.get('name') or '?'} ({f['filename']}:{f['line']})" if f.get("filename") else (f.get("name") or "?")


def main():
    with open(sys.argv[1], "rb") as fh:
        snap = pickle.load(fh)
    traces = snap.get("device_traces", [])
    segments = snap.get("segments", [])
    devices = sorted(set(range(len(traces))) | {s["device"] for s in segments})
    print("device\tkey\tvalue")
    for d in devices:
        events = [e for e in (traces[d] if d < len(traces) else []) if "action" in e]
        live, base, seg_delta, lowest = {}, 0, 0, 0
        for e in events:
            a = e["action"]
            if a == "alloc":
                live[e["addr"]] = e["size"]
            elif a == "free_completed":
                if live.pop(e["addr"], None) is None:
                    base += e["size"]
            elif a in ("segment_alloc", "segment_map"):
                seg_delta += e["size"]
            elif a in ("segment_free", "segment_unmap"):
                seg_delta -= e["size"]
                lowest = min(lowest, seg_delta)
        dev_segments = [s for s in segments if s["device"] == d]
        before = [b for s in dev_segments for b in s["blocks"]
                  if b["state"].startswith("active_") and b["address"] not in live]
        reserved_end = sum(s["total_size"] for s in dev_segments)
        reserved = max(reserved_end - seg_delta, -lowest)
        t0 = min((e["time_us"] for t in traces for e in t if "time_us" in e), default=0)
        # (time, order, kind, addr, bytes, op): the [memory] samples in replay order.
        samples = [(t0, i, "alloc", b["address"], b["size"], label(b.get("frames"))) for i, b in enumerate(before)]
        grows = {"segment_alloc": 1, "segment_map": 1, "segment_free": -1, "segment_unmap": -1}
        for i, e in enumerate(events):
            if e["action"] in ("alloc", "free_completed") or e["action"] in grows:
                samples.append((e["time_us"], len(before) + i, e["action"], e["addr"], e["size"], label(e["frames"])))
        samples.sort(key=lambda s: (s[0], s[1]))
        has_reserved = bool(dev_segments) or seg_delta != 0
        allocated, peak, peak_index, peak_reserved = base, None, -1, -1
        open_at, allocations, unmatched = {}, [], []
        # Segment events change the reserved level the next sample carries; they are no samples themselves.
        segment_events = [s for s in samples if s[2] in grows]
        samples = [s for s in samples if s[2] not in grows]
        for n, (t, order, kind, addr, size, op) in enumerate(samples):
            while segment_events and (segment_events[0][0], segment_events[0][1]) < (t, order):
                reserved += grows[segment_events[0][2]] * segment_events[0][4]
                segment_events.pop(0)
            if has_reserved:
                peak_reserved = max(peak_reserved, reserved)
            if kind == "alloc":
                allocated += size
                open_at[addr] = len(allocations)
                allocations.append([n, None, size, op])
            else:
                allocated -= size
                row = open_at.pop(addr, None)
                if row is None:
                    unmatched.append([None, n, size, op])
                else:
                    allocations[row][1] = n
            if peak is None or allocated > peak:
                peak, peak_index = allocated, n
        by_op = collections.Counter()
        for a, f, size, op in allocations + unmatched:
            if (a is None or a <= peak_index) and (f is None or f > peak_index):
                by_op[op] += size
        top = sorted(by_op.items(), key=lambda kv: -kv[1])
        facts = {
            "pool": f"GPU {d}",
            "samples": len(samples),
            "alloc_events": sum(1 for s in samples if s[2] == "alloc"),
            "free_events": sum(1 for s in samples if s[2] != "alloc"),
            "before_capture_blocks": len(before),
            "unmatched_frees": len(unmatched),
            "never_freed": sum(1 for a in allocations if a[1] is None),
            "peak_allocated_bytes": peak if peak is not None else 0,
            "peak_reserved_bytes": peak_reserved,
            "ooms": sum(1 for e in events if e["action"] == "oom"),
            "top_at_peak_name": top[0][0] if top else "",
            "top_at_peak_bytes": top[0][1] if top else 0,
        }
        for k, v in facts.items():
            print(f"{d}\t{k}\t{v}")


if __name__ == "__main__":
    main()
