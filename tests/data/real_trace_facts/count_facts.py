#!/usr/bin/env python3
# Independent fact counter for the real Chrome-JSON / Kineto traces in
# ../shared/traces: reads the raw events with the standard library only and
# prints one TSV row per trace. Its output (facts.tsv next to this script) is
# what tests/loaders/real_chrome_traces_test.cpp asserts against our loader.
#
# Usage: count_facts.py [TRACES_DIR] > facts.tsv
#   TRACES_DIR defaults to $STEPLINE_TRACES, else <repo>/../shared/traces.
#
# Conventions (docs: ../shared/docs/trace-formats.md, section 2):
# * Times: ts/dur are microseconds, parsed exactly as Decimal from the JSON
#   text (numeric strings are accepted too; string_times counts them, none of
#   the current traces has any). One duration in ns = round half away from zero
#   of dur * 1000; sums add the per-event ns values (what a loader that
#   converts each event sums up). inexact_ns counts ts/dur values with more
#   than 3 decimals (only fuchsia has them, and it has no GPU activity).
# * GPU activity = ph "X" with cat (any case) kernel | gpu_memcpy | memcpy |
#   gpu_memset | memset, and other accelerators' cats mtia_ccp_events |
#   mtia_insight | hpu_op classified by name (ACCELERATOR_CATS below). gpu_user_annotation is NOT a kernel (it is a
#   device-side annotation row). NCCL/RCCL kernels ARE kernels (cat "kernel");
#   nccl_kernels only says how many of them have nccl/rccl in the name.
# * Copy direction from the name: "HtoD" / "DtoH" / "DtoD", anything else is
#   "other" (Kineto names: "Memcpy HtoD (Pageable -> Device)").
# * Thread keys: pid/tid may be numbers or strings. A string holding a decimal
#   integer is the same key as that number (Catapult keys threads by the
#   JavaScript string of the value, so "1441273664" == 1441273664; the 2021
#   Kineto traces write host tids as strings on X events but as numbers on
#   flow events). Other strings ("stream 7", "Spans") are their own keys.
# * gpu_streams = distinct (pid, tid) holding at least one GPU activity;
#   gpu_side_rows = distinct (pid, tid) holding any GPU-side event (activity,
#   gpu_user_annotation, cuda_sync, cuda_event: trace-formats 2.6 puts all of
#   them on pid = device, tid = stream; and mtia_ccp_events, MTIA's device
#   queues). They differ where Kineto puts device-wide cuda_sync events on
#   tid -1 ("Device 0"), and on MTIA.
#   devices = distinct pid holding GPU activity (Kineto: pid = device id = args.device).
# * host_threads = distinct (pid, tid) with an X or B event of a non-GPU-side cat.
# * Steps: X/B events named "ProfilerStep#<n>". Host ones (steps_host) and
#   device-side copies (cat gpu_user_annotation) are counted separately.
# * Launch links. Two independent sets of (launch event, target event) pairs:
#   - flow (launch_pairs_flow): ph s/f with cat ac2g | async_cpu_to_gpu |
#     async_gpu | async, chained by (cat, name, id) in TIME order (Kineto
#     writes every f before its s in file order, so file-order chaining would
#     lose them all). s binds to the deepest slice enclosing ts on its thread;
#     f with "bp":"e" to the deepest enclosing slice on its thread, without it
#     to the next slice starting at or after ts.
#   - corr (launch_pairs_corr): a host launch call (cat cuda_runtime | runtime |
#     cuda_driver | hip_runtime | hip_driver | mtia_runtime |
#     privateuse1_runtime | xpu_runtime) and a GPU activity with the same
#     args.correlation.
#   flow_pairs_bad = flow pairs whose two ends carry different correlation ids
#   (the s bound by time to another call than the launch). The right set is
#   launch_pairs_flow shows "(ties:n)" when n bindings were order-dependent
#   (alexnet: one s at the ts of two zero-length calls; that pair is bad).
#   launch_links = side | (flow - bad), where side pairs a launch call with
#   every GPU-side event (cuda_sync and MTIA queue events too, not only
#   activities) of the same correlation; launched_activities = GPU activities
#   at the target end of one of those. launch_links is -1 when a GPU-side
#   correlation id has two launch calls (corr_ids_multi_launch; none today).
#   flow_pairs_off_device counts ac2g flows that end on a non-GPU-side event
#   (MTIA: 175 end on mtia_runtime calls of the device's submission queues);
#   they are launch links too, as their category says.
# * generic_flow_pairs: the other s/t/f flows, one pair per hop (t continues a
#   flow from the slice enclosing it), same binding, time order, distinct
#   (from, to) pairs. generic_flow_pairs_file_order shows what chaining in
#   file order would give instead.
# * B/E: matched per thread in file order, E closes the most recent open B.
#   unmatched_b = B never closed; unmatched_e = E with nothing open;
#   unbalanced_threads lists the threads where either is not zero.
#   unmatched_begin / unmatched_end add async ones: nestable b/e keyed by
#   (pid, cat, id/id2, scope) in file order, legacy S/F keyed by (pid, name,
#   id) in time order (see async_balance).
# * slices_expected = X + B events (every X is a slice, every B too: an
#   unclosed one is closed at the end of its track); -1 when the trace has
#   async phases (b/e/S/T/F/p, whose slices follow loader-specific rules) or X
#   events without dur.

import bisect
import collections
import csv
import gzip
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

KERNEL_CATS = {"kernel"}
MEMCPY_CATS = {"gpu_memcpy", "memcpy"}
MEMSET_CATS = {"gpu_memset", "memset"}
ACTIVITY_CATS = KERNEL_CATS | MEMCPY_CATS | MEMSET_CATS
# Device-side rows without GpuKind activity too: cuda_sync / cuda_event (trace-formats
# 2.6), and MTIA queue events (pid "MTIA 17", rows "Stream 101".., args.stream).
GPU_SIDE_CATS = ACTIVITY_CATS | {"gpu_user_annotation", "cuda_sync", "cuda_event", "mtia_ccp_events", "mtia_insight",
                                  "hpu_op"}
# Other accelerators' activity: MTIA queue events and Gaudi ops are
# device activity by name: *wait* / *record* / *sync* / *signal* order queues (not
# activity), *memset* is a memset, *dma* / *memcpy* / *copy* a copy (direction by
# name, so MTIA's dma_request is "other"), anything else a kernel.
ACCELERATOR_CATS = {"mtia_ccp_events", "mtia_insight", "hpu_op"}


def accelerator_cat(cat, name):
    n = name.lower()
    if any(w in n for w in ("wait", "record", "sync", "signal")):
        return cat
    if "memset" in n:
        return "gpu_memset"
    if any(w in n for w in ("dma", "memcpy", "copy")):
        return "gpu_memcpy"
    return "kernel"


LAUNCH_FLOW_CATS = {"ac2g", "async_cpu_to_gpu", "async_gpu", "async"}
RUNTIME_CATS = {"cuda_runtime", "runtime", "cuda_driver", "hip_runtime", "hip_driver", "mtia_runtime",
                "privateuse1_runtime", "xpu_runtime"}

COLUMNS = [
    "path", "events", "ph_counts", "string_times",
    "kernels", "kernel_ns", "nccl_kernels", "kernels_per_device",
    "memcpy_h2d", "memcpy_d2h", "memcpy_d2d", "memcpy_other", "memsets",
    "gpu_streams", "gpu_side_rows", "devices", "host_threads",
    "steps_host", "steps_gpu_annotation", "step_numbers",
    "launch_flow_s", "launch_flow_f", "launch_flow_ids_both",
    "launch_pairs_flow", "launch_pairs_corr", "launch_pairs_union", "flow_only", "corr_only",
    "flow_pairs_to_non_activity", "flow_pairs_off_device", "flow_pairs_bad", "corr_ids_multi_launch",
    "launch_links", "launched_activities",
    "slices_expected", "x_neg_dur", "x_no_dur", "inexact_ns", "unmatched_b", "unmatched_e",
    "unbalanced_threads", "unmatched_begin", "unmatched_end",
    "generic_flow_events", "generic_flow_pairs", "generic_flow_pairs_file_order",
]


def to_ns(us):
    """µs (Decimal) -> integer ns, rounding half away from zero."""
    v = us * 1000
    return int(v.quantize(Decimal(1), rounding=ROUND_HALF_UP)) if v >= 0 else -int((-v).quantize(
        Decimal(1), rounding=ROUND_HALF_UP))


def num(v):
    """A JSON time value as Decimal, accepting numeric strings; None if absent/invalid."""
    if v is None or isinstance(v, bool):
        return None
    if isinstance(v, (int, Decimal)):
        return Decimal(v)
    if isinstance(v, str):
        try:
            return Decimal(v.strip())
        except Exception:
            return None
    return None


def key(v):
    """Thread/process key with Catapult semantics (numeric strings == numbers)."""
    if isinstance(v, bool):
        return "b:" + str(v)
    if isinstance(v, int):
        return "n:" + str(v)
    if isinstance(v, Decimal):
        return "n:" + str(v.normalize())
    if isinstance(v, str):
        s = v.strip()
        if s and (s.isdigit() or (s[0] == "-" and s[1:].isdigit())):
            return "n:" + str(int(s))
        return "s:" + v
    return "x:" + json.dumps(v)


def cats_of(e):
    c = e.get("cat")
    return c.lower() if isinstance(c, str) else ""


def load(path):
    with open(path, "rb") as f:
        opener = gzip.open if f.read(2) == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    return [e for e in events if isinstance(e, dict) and e]  # {} terminators are not events


class Track:
    """Slices of one thread, with Chrome-style enclosing/next lookups."""

    def __init__(self):
        self.slices = []  # (start_ns, dur_ns, event index)

    def finalize(self):
        # Sort by (start, longer first, file order); parent = innermost open
        # slice that ends after this one starts (a containment stack).
        self.slices.sort(key=lambda s: (s[0], -s[1], s[2]))
        self.parent = []
        stack = []  # positions of open ancestors
        for pos, (start, dur, _) in enumerate(self.slices):
            while stack and self.end(stack[-1]) <= start:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(pos)
        self.starts = [s[0] for s in self.slices]

    def end(self, pos):
        return self.slices[pos][0] + self.slices[pos][1]

    def enclosing(self, ts):
        """Deepest slice with start <= ts < end (or start == ts): the last
        slice starting at or before ts, or its nearest ancestor containing ts.
        Returns (event index or None, ambiguous) where ambiguous means the
        answer has an identical-span parent or sibling (two zero-length calls
        at one ts, say): which one "encloses" ts is then order-dependent."""
        pos = bisect.bisect_right(self.starts, ts) - 1
        while pos >= 0:
            start, dur, idx = self.slices[pos]
            if start <= ts < start + dur or start == ts:
                par = self.parent[pos]
                tie = (par >= 0 and self.slices[par][:2] == (start, dur)) or \
                      (pos > 0 and self.slices[pos - 1][:2] == (start, dur))
                return idx, tie
            pos = self.parent[pos]
        return None, False

    def next_at_or_after(self, ts):
        i = bisect.bisect_left(self.starts, ts)
        return (self.slices[i][2], False) if i < len(self.slices) else (None, False)


def async_balance(ev):
    """(begins never ended, ends with nothing open) over nestable async b/e,
    keyed by (pid, cat, id/id2, scope) in file order, plus legacy async S/F,
    keyed by (pid, name, id) in TIME order: Catapult's own test traces write
    many F before their S (multiple_input_latency: 575 S / 544 F unmatched in
    file order, 33 / 2 in time order; other keys give the same counts)."""
    orphan_ends = 0
    nestable = collections.defaultdict(int)
    legacy = []
    for i, e in enumerate(ev):
        ph = e.get("ph")
        if ph in ("b", "e"):
            ident = json.dumps(e.get("id", e.get("id2")), sort_keys=True, default=str)
            k = (key(e.get("pid")), e.get("cat"), ident, e.get("scope"))
            if ph == "b":
                nestable[k] += 1
            elif nestable[k]:
                nestable[k] -= 1
            else:
                orphan_ends += 1
        elif ph in ("S", "F") and num(e.get("ts")) is not None:
            legacy.append((num(e.get("ts")), i, e))
    open_legacy = collections.defaultdict(int)
    for _, _, e in sorted(legacy, key=lambda x: (x[0], x[1])):
        k = (key(e.get("pid")), e.get("name"), json.dumps(e.get("id"), default=str))
        if e.get("ph") == "S":
            open_legacy[k] += 1
        elif open_legacy[k]:
            open_legacy[k] -= 1
        else:
            orphan_ends += 1
    return sum(nestable.values()) + sum(open_legacy.values()), orphan_ends


def chain_flows(flow_events, tracks, time_order):
    """Binds s/t/f events to slices. Returns the set of distinct (from, to)
    event-index pairs and how many bindings hit an order-dependent tie."""
    # At equal times s before t before f (a flow cannot end before it starts:
    # alexnet has an s and its f at the same ts, f first in the file), then file order.
    rank = {"s": 0, "t": 1, "f": 2}
    order = sorted(flow_events, key=lambda f: (f["ts"], rank[f["ph"]], f["i"])) if time_order else flow_events
    pairs, ties, open_flow = set(), 0, {}
    for fe in order:
        track = tracks.get(fe["thread"])
        ts = fe["ts"]
        if fe["ph"] == "s":
            open_flow[fe["key"]] = track.enclosing(ts) if track else (None, False)
            continue
        src = open_flow.pop(fe["key"], None)
        if src is None:
            continue  # continues/ends a flow that never started
        if track is None:
            dst = (None, False)
        elif fe["ph"] == "t" or fe["bp_e"]:
            dst = track.enclosing(ts)
        else:
            dst = track.next_at_or_after(ts)
        if fe["ph"] == "t":
            open_flow[fe["key"]] = dst
        if src[0] is not None and dst[0] is not None:
            pairs.add((src[0], dst[0]))
            ties += src[1] or dst[1]
    return pairs, ties


def facts(path, rel):
    ev = load(path)
    row = {c: 0 for c in COLUMNS}
    row["path"] = rel
    row["events"] = len(ev)
    ph_counts = collections.Counter(str(e.get("ph")) for e in ev)
    row["ph_counts"] = ",".join(f"{k}:{v}" for k, v in sorted(ph_counts.items()))

    tracks = collections.defaultdict(Track)
    open_b = collections.defaultdict(list)
    orphan_e = collections.defaultdict(int)
    streams, gpu_side_rows, devices, host_threads = set(), set(), set(), set()
    per_dev = collections.defaultdict(lambda: [0, 0])
    step_numbers = []
    activity_idx = set()
    corr_of = {}  # event index -> args.correlation, for every X event carrying one
    launch_by_corr = collections.defaultdict(list)
    activity_by_corr = collections.defaultdict(list)
    device_by_corr = collections.defaultdict(list)  # any GPU-side event with a correlation
    device_idx = set()
    launch_flow_events, generic_flow_events = [], []

    for i, e in enumerate(ev):
        ph = e.get("ph")
        cat = cats_of(e)
        name = e.get("name") if isinstance(e.get("name"), str) else ""
        act_cat = accelerator_cat(cat, name) if cat in ACCELERATOR_CATS else cat
        thread = (key(e.get("pid")), key(e.get("tid")))
        if isinstance(e.get("ts"), str) or isinstance(e.get("dur"), str):
            row["string_times"] += 1
        ts = num(e.get("ts"))
        if ts is not None and (ts * 1000) != (ts * 1000).to_integral_value():
            row["inexact_ns"] += 1
        if ph == "X":
            dur = num(e.get("dur"))
            if dur is None:
                row["x_no_dur"] += 1
                dur = Decimal(0)
            if dur < 0:
                row["x_neg_dur"] += 1
            if (dur * 1000) != (dur * 1000).to_integral_value():
                row["inexact_ns"] += 1
            start_ns, dur_ns = to_ns(ts), max(0, to_ns(dur))
            tracks[thread].slices.append((start_ns, dur_ns, i))
            args = e.get("args") if isinstance(e.get("args"), dict) else {}
            if "correlation" in args:
                corr_of[i] = args["correlation"]
            if cat in GPU_SIDE_CATS:
                gpu_side_rows.add(thread)
                device_idx.add(i)
                if "correlation" in args:
                    device_by_corr[args["correlation"]].append(i)
            if act_cat in ACTIVITY_CATS:
                activity_idx.add(i)
                streams.add(thread)
                devices.add(thread[0])
                if act_cat in KERNEL_CATS:
                    row["kernels"] += 1
                    row["kernel_ns"] += dur_ns
                    per_dev[thread[0]][0] += 1
                    per_dev[thread[0]][1] += dur_ns
                    if "nccl" in name.lower() or "rccl" in name.lower():
                        row["nccl_kernels"] += 1
                elif act_cat in MEMCPY_CATS:
                    d = "memcpy_h2d" if "HtoD" in name else "memcpy_d2h" if "DtoH" in name else \
                        "memcpy_d2d" if "DtoD" in name else "memcpy_other"
                    row[d] += 1
                else:
                    row["memsets"] += 1
                if "correlation" in args:
                    activity_by_corr[args["correlation"]].append(i)
            elif cat in RUNTIME_CATS and "correlation" in args:
                launch_by_corr[args["correlation"]].append(i)
        elif ph == "B":
            open_b[thread].append((to_ns(ts), i))
        elif ph == "E":
            if open_b[thread]:
                start_ns, bi = open_b[thread].pop()
                tracks[thread].slices.append((start_ns, to_ns(ts) - start_ns, bi))
            else:
                row["unmatched_e"] += 1
                orphan_e[thread] += 1
        elif ph in ("s", "t", "f"):
            fe = {"ts": to_ns(ts), "i": i, "ph": ph, "key": (cat, name, json.dumps(e.get("id"), default=str)),
                  "thread": thread, "bp_e": e.get("bp") == "e"}
            if cat in LAUNCH_FLOW_CATS:
                if ph in ("s", "f"):
                    row["launch_flow_" + ph] += 1
                launch_flow_events.append(fe)
            else:
                row["generic_flow_events"] += 1
                generic_flow_events.append(fe)
        if ph in ("X", "B") and cat not in GPU_SIDE_CATS:
            host_threads.add(thread)
        if ph in ("X", "B") and name.startswith("ProfilerStep#"):
            if cat == "gpu_user_annotation":
                row["steps_gpu_annotation"] += 1
            else:
                row["steps_host"] += 1
                step_numbers.append(name[len("ProfilerStep#"):])

    row["unmatched_b"] = sum(len(v) for v in open_b.values())
    # B/E balance per thread, listed where it is not zero: "pid/tid:+open-orphans".
    row["unbalanced_threads"] = " ".join(
        f"{t[0][2:]}/{t[1][2:]}:+{len(open_b[t])}-{orphan_e[t]}"
        for t in sorted(set(open_b) | set(orphan_e)) if open_b[t] or orphan_e[t])
    async_open, async_orphans = async_balance(ev)
    row["unmatched_begin"] = row["unmatched_b"] + async_open
    row["unmatched_end"] = row["unmatched_e"] + async_orphans
    # Every X is a slice, and so is every B (an unmatched one is closed at the
    # end of its track). Async/legacy-async phases also make slices, with
    # loader-specific rules, so the total is only stated without them.
    no_async = not any(ph_counts.get(p) for p in ("b", "e", "S", "T", "F", "p"))
    row["slices_expected"] = ph_counts.get("X", 0) + ph_counts.get("B", 0) \
        if no_async and row["x_no_dur"] == 0 else -1
    row["gpu_streams"] = len(streams)
    row["gpu_side_rows"] = len(gpu_side_rows)
    row["devices"] = len(devices)
    row["host_threads"] = len(host_threads)
    row["kernels_per_device"] = " ".join(
        f"{p[2:]}={c}/{ns}" for p, (c, ns) in sorted(per_dev.items(), key=lambda kv: kv[0]))
    row["step_numbers"] = ",".join(sorted(step_numbers, key=lambda s: int(s) if s.isdigit() else -1))

    for t in tracks.values():
        t.finalize()

    ids_s = {fe["key"] for fe in launch_flow_events if fe["ph"] == "s"}
    ids_f = {fe["key"] for fe in launch_flow_events if fe["ph"] == "f"}
    row["launch_flow_ids_both"] = len(ids_s & ids_f)
    flow_pairs, ties = chain_flows(launch_flow_events, tracks, time_order=True)
    corr_pairs = set()  # launch call -> GPU activity
    for corr, acts in activity_by_corr.items():
        corr_pairs.update((l, a) for a in acts for l in launch_by_corr.get(corr, []))
    side_pairs = set()  # launch call -> any GPU-side event (cuda_sync, MTIA queues too)
    for corr, targets in device_by_corr.items():
        launches = launch_by_corr.get(corr, [])
        row["corr_ids_multi_launch"] += len(launches) > 1
        side_pairs.update((l, t) for t in targets for l in launches)
    # A flow pair is wrong when both ends carry a correlation id and the ids
    # differ: the flow's s bound to another slice than the launch call.
    bad = {(a, b) for a, b in flow_pairs if a in corr_of and b in corr_of and corr_of[a] != corr_of[b]}
    links = side_pairs | (flow_pairs - bad)
    row["launch_pairs_flow"] = f"{len(flow_pairs)}(ties:{ties})" if ties else len(flow_pairs)
    row["launch_pairs_corr"] = len(corr_pairs)
    row["launch_pairs_union"] = len(flow_pairs | corr_pairs)
    row["flow_only"] = len(flow_pairs - corr_pairs)
    row["corr_only"] = len(corr_pairs - flow_pairs)
    row["flow_pairs_to_non_activity"] = sum(1 for _, t in flow_pairs if t not in activity_idx)
    row["flow_pairs_off_device"] = sum(1 for _, t in flow_pairs if t not in device_idx)
    row["flow_pairs_bad"] = len(bad)
    # With two launch calls for one correlation id, which one a loader pairs
    # is arbitrary: not stated then.
    row["launch_links"] = -1 if row["corr_ids_multi_launch"] > 0 else len(links)
    row["launched_activities"] = len({t for _, t in links if t in activity_idx})

    gen_time, gen_ties = chain_flows(generic_flow_events, tracks, time_order=True)
    gen_file, _ = chain_flows(generic_flow_events, tracks, time_order=False)
    row["generic_flow_pairs"] = f"{len(gen_time)}(ties:{gen_ties})" if gen_ties else len(gen_time)
    row["generic_flow_pairs_file_order"] = len(gen_file)
    return row


def main():
    repo = Path(__file__).resolve().parents[3]
    if len(sys.argv) > 1:
        traces = Path(sys.argv[1])
    elif os.environ.get("STEPLINE_TRACES"):
        traces = Path(os.environ["STEPLINE_TRACES"])
    else:
        traces = repo.parent / "shared" / "traces"
    with open(traces / "MANIFEST.tsv", newline="") as f:
        manifest = list(csv.DictReader(f, delimiter="\t"))
    out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    out.writerow(COLUMNS)
    for m in manifest:
        if m["format"] not in ("chrome-json", "kineto-json"):
            continue
        row = facts(traces / m["local_path"], m["local_path"])
        out.writerow([row[c] for c in COLUMNS])


if __name__ == "__main__":
    main()
