#!/usr/bin/env python3
"""Independent facts about a Perfetto protobuf trace, for tests/loaders/perfetto_real_trace_test.cpp.

A hand-written protobuf wire decoder (no protobuf library, no Stepline code), so the numbers the C++
test asserts are checked by a second implementation. Field numbers from shared/docs/trace-formats.md
section 3:

    python3 tests/data/perfetto_facts.py ../shared/traces/perfetto/scrolling_with_blocked_nonblocked_frames.pftrace

Counting rules (what the facts mean):
  * events by type: TrackEvent.type (9) of every packet's track_event (11); "untyped" = no type field;
  * instants_with_flows: INSTANT events carrying flow_ids (36/47) or terminating_flow_ids (42/48);
  * extra_counter_values: every value of TrackEvent.extra_counter_values (12), packed or not;
  * descriptors: TrackDescriptor packets (60); distinct uuids; per kind (process 3 / thread 4 / counter 8);
    threads = distinct (pid, tid) of thread descriptors;
  * processes: pid -> process_name of process descriptors;
  * flow arrows: events (BEGIN, or INSTANT) with flow ids, per id in time order (file order on ties): an event
    with a flow id draws an arrow from the id's open event, if any, and becomes the open event; a terminating
    id draws the arrow and closes the id;
  * longest slice on a thread track: SLICE_BEGIN/SLICE_END matched as a stack per track uuid in file order;
    track = TrackEvent.track_uuid, else TracePacketDefaults.track_event_defaults.track_uuid of the sequence;
    name = TrackEvent.name (23) or InternedData.event_names (2) of the sequence (cleared by sequence_flags 1);
    time = packet timestamp on the packet's clock (58, else the sequence default), sequence clocks 64..127 taken
    from the sequence's ClockSnapshot (incremental: running sum from the snapshot reading; times
    unit_multiplier_ns), converted to the snapshot's other clock and from there to BOOTTIME (6) through the
    latest global snapshot (one without sequence clocks) whose reading of that clock is at or before the
    time, else the first one.
"""
import collections
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b, start, end):
    i = start
    while i < end:
        tag, i = varint(b, i)
        fn, wt = tag >> 3, tag & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v = int.from_bytes(b[i:i + 8], "little")
            i += 8
        elif wt == 5:
            v = int.from_bytes(b[i:i + 4], "little")
            i += 4
        elif wt == 2:
            n, i = varint(b, i)
            v = (i, i + n)
            i += n
        else:
            raise ValueError("wire type %d at %d" % (wt, i))
        yield fn, wt, v


def msg(b, r):
    """Last value per field number, plus all values per field number."""
    last, every = {}, collections.defaultdict(list)
    for fn, wt, v in fields(b, *r):
        last[fn] = v
        every[fn].append((wt, v))
    return last, every


def text(b, r):
    return b[r[0]:r[1]].decode("utf-8", "replace")


def repeated_varints(b, items):
    out = []
    for wt, v in items:
        if wt == 0:
            out.append(v)
        else:
            i, end = v
            while i < end:
                x, i = varint(b, i)
                out.append(x)
    return out


def main(path):
    b = open(path, "rb").read()
    types = collections.Counter()
    instants_with_flows = extra_values = 0
    descriptor_packets = 0
    uuids, kinds, threads, processes, thread_names = set(), collections.Counter(), set(), {}, {}
    desc = {}
    global_snaps = []
    seq_clock, seq_names, seq_default, open_slices = {}, {}, {}, collections.defaultdict(list)
    longest = None
    flow_events = collections.defaultdict(list)
    packets = 0
    for fn, wt, r in fields(b, 0, len(b)):
        if fn != 1:
            continue
        packets += 1
        p, pe = msg(b, r)
        seq = p.get(10, 0)
        if p.get(13, 0) & 1:
            seq_names[seq] = {}
            seq_default[seq] = (0, None)
        if 6 in p:
            clocks = {}
            for _, c in pe[6]:
                for _, cr in msg(b, c)[1].get(1, []):
                    cc, _ = msg(b, cr)
                    clocks[cc.get(1, 0)] = cc
            if any(k >= 64 for k in clocks):
                seq_clock[seq] = {"clocks": clocks, "running": {k: c.get(2, 0) for k, c in clocks.items()}}
            else:
                global_snaps.append({k: c.get(2, 0) for k, c in clocks.items()})
        if 59 in p:
            d, _ = msg(b, p[59])
            te_track = msg(b, d[11])[0].get(11) if 11 in d else None
            seq_default[seq] = (d.get(58, 0), te_track)
        if 12 in p:
            _, ie = msg(b, p[12])
            for _, e in ie.get(2, []):
                em, _ = msg(b, e)
                seq_names.setdefault(seq, {})[em.get(1, 0)] = text(b, em[2]) if 2 in em else ""
        ts = None
        if 8 in p:
            clock = p.get(58, seq_default.get(seq, (0, None))[0]) or 6
            ts = p[8]
            if clock >= 64:
                sc = seq_clock[seq]
                c = sc["clocks"][clock]
                if c.get(3):
                    sc["running"][clock] += ts
                    ts = sc["running"][clock]
                base = [k for k in sc["clocks"] if k < 64][0]
                ts = sc["clocks"][base].get(2, 0) + (ts - c.get(2, 0)) * c.get(4, 1)
                clock = base
            if clock != 6:
                usable = [g for g in global_snaps if clock in g and 6 in g]
                before = [g for g in usable if g[clock] <= ts]
                g = max(before, key=lambda g: g[clock]) if before else usable[0]
                ts += g[6] - g[clock]
        if 60 in p:
            descriptor_packets += 1
            d, _ = msg(b, p[60])
            uuids.add(d.get(1, 0))
            desc.setdefault(d.get(1, 0), {}).update(d)
            for field, kind in ((3, "process"), (4, "thread"), (8, "counter")):
                if field in d:
                    kinds[kind] += 1
            if 3 in d:
                pm, _ = msg(b, d[3])
                processes[pm.get(1, 0)] = text(b, pm[6]) if 6 in pm else ""
            if 4 in d:
                tm, _ = msg(b, d[4])
                threads.add((tm.get(1, 0), tm.get(2, 0)))
                thread_names[d.get(1, 0)] = text(b, tm[5]) if 5 in tm else ""
        if 11 in p:
            te, tee = msg(b, p[11])
            t = te.get(9)
            types[t if t is not None else "untyped"] += 1
            extra_values += len(repeated_varints(b, tee.get(12, [])))
            if t == 3 and any(f in te for f in (36, 47, 42, 48)):
                instants_with_flows += 1
            if t in (1, 3):
                for field, terminating in ((36, False), (47, False), (42, True), (48, True)):
                    for wt_, v in tee.get(field, []):
                        ids = [v] if wt_ in (0, 1) else None
                        if ids is None:
                            raise ValueError("packed flow ids not handled by this script")
                        for fid in ids:
                            flow_events[fid].append((ts, packets, terminating))
            track = te.get(11, seq_default.get(seq, (0, None))[1])
            if t == 1:
                name = text(b, te[23]) if 23 in te else seq_names.get(seq, {}).get(te.get(10), "")
                open_slices[track].append((ts, name))
            elif t == 2 and open_slices[track]:
                start, name = open_slices[track].pop()
                if track in thread_names and (longest is None or ts - start > longest[2]):
                    longest = (name, start, ts - start, thread_names[track])
    arrows = 0
    for events in flow_events.values():
        is_open = False
        for _, _, terminating in sorted(events, key=lambda e: (e[0], e[1])):
            if is_open:
                arrows += 1
            is_open = not terminating
    print("packets", packets, "global_clock_snapshots", len(global_snaps))
    for t in (1, 2, 3, 4, "untyped"):
        print("events type", t, types.get(t, 0))
    print("instants_with_flows", instants_with_flows)
    print("extra_counter_values", extra_values)
    print("descriptor_packets", descriptor_packets, "distinct_uuids", len(uuids), dict(kinds))
    print("threads", len(threads))
    print("processes", sorted(processes.items()))
    print("flow_arrows", arrows)
    print("longest_thread_slice name=%r start_ns=%d dur_ns=%d thread=%r" % longest)


if __name__ == "__main__":
    main(sys.argv[1])
