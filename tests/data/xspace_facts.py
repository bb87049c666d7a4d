#!/usr/bin/env python3
"""Independent facts about an XSpace (.xplane.pb) file, for tests/loaders/xspace_real_traces_test.cpp.

A hand-written protobuf wire decoder (no protobuf library, no Stepline code), so the
numbers asserted by the C++ tests are checked by a second implementation:

    python3 tests/data/xspace_facts.py ../shared/traces/xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb

Counting rules (what the facts mean):
  * device = plane "/device:GPU:<n>"; stream line = its lines named "Stream #...";
  * memcpy = a stream event with a memcpy_details stat or a name starting "Memcpy";
    H2D = name has H2D/HtoD/HostToDevice (or kind_src host-like and kind_dst device);
    memset = a Memset_details stat or name starting "Memset"; kernel = any other stream event;
  * ns of an event = floor(end_ps / 1000) - floor(start_ps / 1000), start_ps = timestamp_ns*1000 + offset_ps;
  * host threads = lines of "/host:CPU" that have events;
  * launch links = device stream events whose correlation_id equals that of some /host:CPU event;
  * steps = events on lines named exactly "Steps", as (device, start_ns, name).
"""
import struct
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
            v = b[i:i + 8]
            i += 8
        elif wt == 5:
            v = b[i:i + 4]
            i += 4
        elif wt == 2:
            n, i = varint(b, i)
            v = (i, i + n)
            i += n
        else:
            raise ValueError("wire type %d at %d" % (wt, i))
        yield fn, wt, v


def s64(v):
    return v - (1 << 64) if v >= (1 << 63) else v


def text(b, r):
    return b[r[0]:r[1]].decode("utf-8", "replace")


def stat(b, r):
    md, val = 0, None
    for f, w, v in fields(b, *r):
        if f == 1:
            md = s64(v)
        elif f == 2:
            val = ("double", struct.unpack("<d", v)[0])
        elif f == 3:
            val = ("uint", v)
        elif f == 4:
            val = ("int", s64(v))
        elif f == 5:
            val = ("str", text(b, v))
        elif f == 6:
            val = ("bytes", v[1] - v[0])
        elif f == 7:
            val = ("ref", v)
    return md, val


def plane(b, r):
    p = {"id": 0, "name": "", "lines": [], "em": {}, "sm": {}}
    for f, w, v in fields(b, *r):
        if f == 1:
            p["id"] = s64(v)
        elif f == 2:
            p["name"] = text(b, v)
        elif f == 3:
            line = {"id": 0, "name": "", "ts": 0, "events": []}
            for f3, w3, v3 in fields(b, *v):
                if f3 == 1:
                    line["id"] = s64(v3)
                elif f3 == 2:
                    line["name"] = text(b, v3)
                elif f3 == 3:
                    line["ts"] = s64(v3)
                elif f3 == 4:
                    e = {"md": 0, "off": 0, "dur": 0, "stats": []}
                    for f4, w4, v4 in fields(b, *v3):
                        if f4 == 1:
                            e["md"] = s64(v4)
                        elif f4 == 2:
                            e["off"] = s64(v4)
                        elif f4 == 3:
                            e["dur"] = s64(v4)
                        elif f4 == 4:
                            e["stats"].append(stat(b, v4))
                    line["events"].append(e)
            p["lines"].append(line)
        elif f in (4, 5):
            key, name, disp, stats = 0, "", "", []
            for f2, w2, v2 in fields(b, *v):
                if f2 == 1:
                    key = s64(v2)
                elif f2 == 2:
                    for f3, w3, v3 in fields(b, *v2):
                        if f3 == 2:
                            name = text(b, v3)
                        elif f3 == 4 and f == 4:
                            disp = text(b, v3)
                        elif f3 == 5 and f == 4:
                            stats.append(stat(b, v3))
            if f == 4:
                p["em"][key] = (disp or name, stats)
            else:
                p["sm"][key] = name
    return p


def event_stats(p, e):
    out = {}
    for md, val in p["em"].get(e["md"], ("", []))[1] + e["stats"]:
        name = p["sm"].get(md, "")
        if val and val[0] == "ref":
            val = ("str", p["sm"].get(val[1], ""))
        out[name] = val
    return out


def ns(line, e):
    start_ps = line["ts"] * 1000 + e["off"]
    return start_ps // 1000, (start_ps + e["dur"]) // 1000


def main(path):
    b = open(path, "rb").read()
    planes = [plane(b, v) for f, w, v in fields(b, 0, len(b)) if f == 1]
    host_corr = set()
    for p in planes:
        if p["name"] == "/host:CPU":
            lines = [l for l in p["lines"] if l["events"]]
            print("host_threads", len(lines))
            print("host_events", sum(len(l["events"]) for l in lines))
            for l in lines:
                for e in l["events"]:
                    st = event_stats(p, e)
                    if "correlation_id" in st:
                        host_corr.add(st["correlation_id"][1])
    links = 0
    for p in planes:
        if not p["name"].startswith("/device:GPU:"):
            continue
        dev = p["name"].split(":")[-1]
        streams = kernels = kernel_ns = h2d = d2h = d2d = memcpy = memset = 0
        for l in p["lines"]:
            if l["name"] == "Steps":
                for e in l["events"]:
                    st = event_stats(p, e)
                    name = st["step_name"][1] if "step_name" in st else p["em"][e["md"]][0]
                    print("step", dev, ns(l, e)[0], name)
            if not l["name"].startswith("Stream #") or not l["events"]:
                continue
            streams += 1
            for e in l["events"]:
                name = p["em"].get(e["md"], ("", []))[0]
                st = event_stats(p, e)
                if "correlation_id" in st and st["correlation_id"][1] in host_corr:
                    links += 1
                details = st.get("memcpy_details", ("str", ""))[1]
                if "memcpy_details" in st or name.startswith("Memcpy"):
                    memcpy += 1
                    words = dict(w.split(":", 1) for w in details.split() if ":" in w)
                    src, dst = words.get("kind_src", ""), words.get("kind_dst", "")
                    if any(k in name for k in ("H2D", "HtoD", "HostToDevice")) or (
                            src.startswith(("host", "pinned", "pageable")) and dst.startswith("device")):
                        h2d += 1
                    elif any(k in name for k in ("D2H", "DtoH", "DeviceToHost")):
                        d2h += 1
                    elif any(k in name for k in ("D2D", "DtoD", "DeviceToDevice")):
                        d2d += 1
                elif "Memset_details" in st or name.startswith("Memset"):
                    memset += 1
                else:
                    kernels += 1
                    s, t = ns(l, e)
                    kernel_ns += t - s
        print("device", dev, "streams", streams, "kernels", kernels, "kernel_ns", kernel_ns, "memcpy", memcpy,
              "h2d", h2d, "d2h", d2h, "d2d", d2d, "memset", memset)
    print("launch_links", links)


if __name__ == "__main__":
    main(sys.argv[1])
