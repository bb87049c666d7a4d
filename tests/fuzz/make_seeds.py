#!/usr/bin/env python3
"""Writes the fuzz seed corpora (corpus/<target>/) from small slices of the
shared traces. Run once by hand; the output is committed (a few KB per seed).
   tests/fuzz/make_seeds.py [TRACES_DIR]   (default ../shared/traces)
Each seed stays under 6 KB so libFuzzer's default -max_len stays small."""
import glob, gzip, json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRACES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "traces")
MAX_SEED = 6000


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- protobuf wire helpers -------------------------------------------------
def varint(b, p):
    r = s = 0
    while True:
        c = b[p]; p += 1; r |= (c & 0x7F) << s; s += 7
        if c < 0x80:
            return r, p


def enc_varint(v):
    out = bytearray()
    while True:
        c = v & 0x7F; v >>= 7
        out.append(c | (0x80 if v else 0))
        if not v:
            return bytes(out)


def fields(b, p=0, end=None):
    """(number, wire type, raw field bytes incl. tag, payload) for each field."""
    end = len(b) if end is None else end
    out = []
    while p < end:
        start = p
        t, p = varint(b, p); n, w = t >> 3, t & 7
        if w == 0:
            _, p = varint(b, p); payload = None
        elif w == 1:
            p += 8; payload = None
        elif w == 5:
            p += 4; payload = None
        elif w == 2:
            l, p = varint(b, p); payload = b[p:p + l]; p += l
        else:
            raise ValueError("wire type %d" % w)
        out.append((n, w, b[start:p], payload))
    return out


def ld(number, payload):
    return enc_varint(number << 3 | 2) + enc_varint(len(payload)) + payload


# ---- XSpace: each plane with its first line cut to a few events ------------
def slim_plane(plane, events_per_line, lines_kept):
    out = bytearray(); lines = 0
    for n, w, raw, payload in fields(plane):
        if n == 3 and w == 2:
            if lines >= lines_kept:
                continue
            lines += 1
            kept = bytearray(); events = 0
            for ln, lw, lraw, _ in fields(payload):
                if ln == 4 and lw == 2:
                    events += 1
                    if events > events_per_line:
                        continue
                kept += lraw
            out += ld(3, bytes(kept))
        elif n in (4, 5) and len(out) > MAX_SEED:
            continue  # metadata beyond the budget
        else:
            out += raw
    return bytes(out)


def xspace_seeds():
    for path in sorted(glob.glob(os.path.join(TRACES, "*", "*.xplane.pb"))):
        if "corrupt" in path:
            continue
        b = open(path, "rb").read()
        top = fields(b)
        base = os.path.basename(path).split(".")[0][:24]
        sizes = set()
        for i, (n, w, raw, payload) in enumerate(top):
            if n != 1 or w != 2 or len(payload) in sizes or len(sizes) >= 5:
                continue  # one seed per distinct plane, five per file
            sizes.add(len(payload))
            plane = slim_plane(payload, events_per_line=6, lines_kept=2)
            if len(plane) > MAX_SEED:
                plane = slim_plane(payload, events_per_line=3, lines_kept=1)
            if len(plane) > MAX_SEED:  # keep id, name and the line; drop the metadata
                plane = b"".join(r for fn, _, r, _ in fields(plane) if fn in (1, 2, 3))
            seed = ld(1, plane) + b"".join(r for fn, _, r, _ in top if fn in (2, 3, 4))
            write("xspace", "%s_plane%d.pb" % (base, i), seed)


# ---- Perfetto: the first packets, and a window later on --------------------
def perfetto_seeds():
    for path in sorted(glob.glob(os.path.join(TRACES, "*", "*.pftrace"))):
        b = open(path, "rb").read()
        top = fields(b)
        base = os.path.basename(path).split(".")[0][:24]
        head = b""
        k = 0
        while k < len(top) and len(head) + len(top[k][2]) < MAX_SEED:
            head += top[k][2]; k += 1
        write("perfetto", base + "_head.pftrace", head)
        # Descriptors and interned data from the head, then a later window.
        for start in (len(top) // 3, 2 * len(top) // 3):
            seed = head[:2000]
            j = start
            while j < len(top) and len(seed) + len(top[j][2]) < MAX_SEED:
                seed += top[j][2]; j += 1
            write("perfetto", "%s_at%d.pftrace" % (base, start), seed)


# ---- Chrome JSON: the first events of several producers --------------------
def read_json(path):
    data = open(path, "rb").read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return json.loads(data)


def json_seeds():
    picks = ["kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz",
             "hta/critical_path_cuda_event_sync_event_sync_trace.json.gz",
             "hta/amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz",
             "catapult/flow.json", "catapult/multiple_input_latency.json",
             "tracelens/mi210_gpu_only_trace.json.gz", "hta/with_gpu_user_annotation_step_based_trace_2543932.json.gz"]
    seeds = []
    for rel in picks:
        path = os.path.join(TRACES, rel)
        if not os.path.exists(path):
            continue
        doc = read_json(path)
        events = doc["traceEvents"] if isinstance(doc, dict) else doc
        base = os.path.basename(rel).split(".")[0][:24]
        # Spread the picks: metadata at the head, phases from the middle.
        for label, chosen in (("head", events[:40]), ("mid", events[len(events) // 2:len(events) // 2 + 40])):
            while chosen:
                text = json.dumps({"traceEvents": chosen}, separators=(",", ":")).encode()
                if len(text) <= MAX_SEED:
                    break
                chosen = chosen[:-1]
            if chosen:
                write("chrome_json", "%s_%s.json" % (base, label), text)
                seeds.append(text)
    for f in sorted(glob.glob(os.path.join(ROOT, "tests", "data", "*.json"))):
        text = open(f, "rb").read()
        if len(text) <= MAX_SEED:
            write("chrome_json", "data_" + os.path.basename(f), text)
            seeds.append(text)
    return seeds


# ---- ByteSource: compressed and cut wrappers around the JSON seeds ---------
def byte_source_seeds(json_texts):
    for i, text in enumerate(json_texts[:6]):
        gz = gzip.compress(text, mtime=0)
        zs = subprocess.run(["zstd", "-q", "-c", "-3"], input=text, capture_output=True, check=True).stdout
        write("byte_source", "j%d.json.gz" % i, gz)
        write("byte_source", "j%d.json.zst" % i, zs)
        write("byte_source", "j%d_cut.json.gz" % i, gz[: len(gz) * 2 // 3])
        write("byte_source", "j%d_cut.json.zst" % i, zs[: len(zs) * 2 // 3])
    if json_texts:
        t = json_texts[0]
        half = len(t) // 2
        write("byte_source", "two_members.gz", gzip.compress(t[:half], mtime=0) + gzip.compress(t[half:], mtime=0))
        skippable = b"\x50\x2a\x4d\x18" + (4).to_bytes(4, "little") + b"skip"
        zs = subprocess.run(["zstd", "-q", "-c"], input=t, capture_output=True, check=True).stdout
        write("byte_source", "skippable.zst", skippable + zs)
        write("byte_source", "double.gz", gzip.compress(gzip.compress(t, mtime=0), mtime=0))
        # Frames that declare their size decode in parallel (loaders/zstd_frames.h).
        third = len(t) // 3 + 1
        pieces = [t[k : k + third] for k in range(0, len(t), third)]
        frames = [subprocess.run(["zstd", "-q", "-c", "--stream-size=%d" % len(p)], input=p, capture_output=True,
                                 check=True).stdout for p in pieces]
        write("byte_source", "sized_frames.zst", skippable + b"".join(frames))
    pf = os.path.join(HERE, "corpus", "perfetto")
    for f in sorted(os.listdir(pf))[:1] if os.path.isdir(pf) else []:
        write("byte_source", "perfetto.gz", gzip.compress(open(os.path.join(pf, f), "rb").read(), mtime=0))
    xs = os.path.join(HERE, "corpus", "xspace")
    for f in sorted(os.listdir(xs))[:1] if os.path.isdir(xs) else []:
        write("byte_source", "xspace.gz", gzip.compress(open(os.path.join(xs, f), "rb").read(), mtime=0))


# ---- Perfetto in PyTorch/Kineto's layout (loaders/perfetto/kineto_layout.h) -
def vi(num, v):
    return enc_varint(num << 3) + enc_varint(v & 0xFFFFFFFFFFFFFFFF)


def fx(num, v):
    return enc_varint(num << 3 | 1) + v.to_bytes(8, "little")


def kineto_perfetto_seeds():
    """Synthetic: a CPU thread and a "GPU 0" process with "stream 7"; runtime
    calls and GPU ops sharing flow ids, typed debug annotations, a step, two
    overlapping kernels, a copy and a memset, each slice a BEGIN/END pair."""
    def packet(ts, body):
        return ld(1, vi(8, ts) + vi(10, 1) + body)

    def event(ts, kind, track, name=b"", cat=b"", flow=0, args=b""):
        e = vi(9, kind) + vi(11, track)
        if name:
            e += ld(23, name)
        if cat:
            e += ld(22, cat)
        if flow:
            e += fx(47, flow)
        return packet(ts, ld(11, e + args))

    def ann(name, value):  # value: bytes = string, int, float or ("json", text)
        a = ld(10, name)
        if isinstance(value, tuple):
            a += ld(9, value[1])
        elif isinstance(value, bytes):
            a += ld(6, value)
        elif isinstance(value, float):
            import struct
            a += enc_varint(5 << 3 | 1) + struct.pack("<d", value)
        else:
            a += vi(4, value)
        return ld(4, a)

    out = ld(1, ld(60, vi(1, 1) + ld(3, vi(1, 4242) + ld(6, b"python"))))
    out += ld(1, ld(60, vi(1, 2) + vi(5, 1) + ld(4, vi(1, 4242) + vi(2, 4243) + ld(5, b"main"))))
    out += ld(1, ld(60, vi(1, 3) + ld(3, vi(1, 0) + ld(6, b"GPU 0"))))
    out += ld(1, ld(60, vi(1, 4) + vi(5, 3) + ld(4, vi(1, 0) + vi(2, 7) + ld(5, b"stream 7"))))
    out += event(1000, 1, 2, b"ProfilerStep#1", b"user_annotation") + event(9000, 2, 2)
    out += event(1100, 1, 2, b"aten::mm", b"cpu_op", args=ann(b"Input Dims", ("json", b"[[2, 3], [3, 4]]"))) + event(1900, 2, 2)
    out += event(1200, 1, 2, b"cudaLaunchKernel", b"cuda_runtime", 11, ann(b"correlation", 11)) + event(1300, 2, 2)
    out += event(1400, 1, 2, b"cudaMemcpyAsync", b"cuda_runtime", 12, ann(b"correlation", 12)) + event(1500, 2, 2)
    out += event(2000, 1, 4, b"gemm", b"kernel", 11, ann(b"grid", ("json", b"[4, 1, 1]")) + ann(b"stream", 7) +
                 ann(b"est. achieved occupancy %", 50.0) + ann(b"device", b"0")) + event(3000, 2, 4)
    out += event(2500, 1, 4, b"gemm_pdl", b"kernel") + event(3600, 2, 4)
    out += event(4000, 1, 4, b"Memcpy HtoD (Pageable -> Device)", b"gpu_memcpy", 12) + event(4200, 2, 4)
    out += event(4300, 1, 4, b"Memset (Device)", b"gpu_memset") + event(4400, 2, 4)
    write("perfetto", "kineto_layout.pftrace", out)
    write("byte_source", "kineto_layout.pftrace.gz", gzip.compress(out, mtime=0))


# ---- Perfetto GPU render stage events (loaders/perfetto/render_stages.h) ----
def render_stage_seeds():
    """Synthetic: interned queue/stage specifications, kernels and a copy on
    GPU 1, one stage in the deprecated specifications form, and host events
    whose GpuCorrelation names the GPU events they submitted or waited for."""
    def packet(seq, ts, body):
        return ld(1, vi(8, ts) + vi(10, seq) + body)

    def host(ts, kind, name=b"", submitted=(), waited=()):
        e = vi(9, kind) + vi(11, 2)
        if name:
            e += ld(23, name)
        if submitted or waited:
            c = b"".join(vi(1, i) for i in submitted)
            if waited:
                c += ld(2, b"".join(enc_varint(i) for i in waited))
            e += ld(3000, c)
        return packet(1, ts, ld(11, e))

    def spec(iid, name, category):
        return ld(24, vi(1, iid) + ld(2, name) + ld(3, name + b" description") + vi(4, category))

    def stage(ts, event_id, dur, queue, stage_iid, name):
        return packet(2, ts, ld(53, vi(1, event_id) + vi(2, dur) + vi(13, queue) + vi(14, stage_iid) + vi(11, 1) +
                               ld(17, name) + ld(6, ld(1, b"grid") + ld(2, b"[4,1,1]"))))

    out = ld(1, ld(60, vi(1, 1) + ld(3, vi(1, 4242) + ld(6, b"python"))))
    out += ld(1, ld(60, vi(1, 2) + vi(5, 1) + ld(4, vi(1, 4242) + vi(2, 4243) + ld(5, b"main"))))
    out += host(100, 1, b"cudaLaunchKernel", submitted=(1001,)) + host(120, 2)
    out += host(130, 1, b"cudaGraphLaunch", submitted=(1002, 1003)) + host(150, 2)
    out += host(160, 1, b"cudaDeviceSynchronize", waited=(1003,)) + host(400, 2)
    out += packet(2, 0, vi(13, 1) + ld(12, spec(1, b"CUDA stream 7", 2) + spec(2, b"Kernel", 2) +
                                       spec(3, b"Memcpy", 0) + ld(2, vi(1, 5) + ld(2, b"relu_kernel"))))
    out += stage(200, 1001, 50, 1, 2, b"gemm_kernel")
    out += packet(2, 260, ld(53, vi(1, 1002) + vi(2, 30) + vi(13, 1) + vi(14, 2) + vi(20, 5)))
    out += stage(280, 1003, 40, 1, 2, b"ncclDevKernel_AllReduce")
    out += stage(330, 1004, 20, 1, 3, b"Memcpy HtoD (Pageable -> Device)")
    out += packet(3, 500, ld(53, vi(1, 2001) + vi(2, 10) + vi(3, 0) + vi(4, 0) +
                             ld(7, ld(2, ld(1, b"GL queue")) + ld(3, ld(1, b"fragment")))))
    write("perfetto", "render_stages.pftrace", out)


if __name__ == "__main__":
    if not os.path.isdir(TRACES):
        sys.exit("traces not found at %s" % TRACES)
    xspace_seeds()
    perfetto_seeds()
    kineto_perfetto_seeds()
    render_stage_seeds()
    byte_source_seeds(json_seeds())
