#!/usr/bin/env python3
"""Writes a large synthetic PyTorch memory snapshot for `stepline bench`.

    make_memory_snapshot.py OUT.pickle [SIZE_MB] [--fresh-frames]   (default 1024)
    make_memory_snapshot.py --check                 (small one, checked against pickle.loads)

--fresh-frames writes every entry's frames as new dicts, as a snapshot
rebuilt by a script may (facebookresearch/mosaic's sample): the shape the
reader's fast path leaves to its opcode loop.

The bytes are the opcodes Python's pickler writes at protocol 4 for the dict
torch.cuda.memory._snapshot() returns (without the optional FRAME opcodes),
streamed instead of built in memory: a 1 GB snapshot holds ~9 million
entries, more dicts than Python holds comfortably on a small machine. Like
PyTorch, it shares one dict per distinct frame, so entries name their frames
through the memo. One device; allocs and frees of a working set of ~2000
blocks; the blocks live at the end appear in `segments` as PyTorch lists them.
"""
import io
import pickle
import random
import struct
import sys

STACKS = 3000
FRAMES = 4000
DEPTH = (6, 24)


class Writer:
    def __init__(self, out):
        self.out = out
        self.memo = 0
        self.strings = {}
        self.frames = {}  # frame id -> memo index of its dict

    def memoize(self):
        self.out.write(b"\x94")
        self.memo += 1
        return self.memo - 1

    @staticmethod
    def get(i):
        return b"h" + bytes([i]) if i < 256 else b"j" + struct.pack("<I", i)

    def string(self, s):
        if s in self.strings:
            self.out.write(self.get(self.strings[s]))
            return
        b = s.encode()
        self.out.write(b"\x8c" + bytes([len(b)]) + b)
        self.strings[s] = self.memoize()

    @staticmethod
    def int_bytes(v):
        if 0 <= v < 256:
            return b"K" + bytes([v])
        if 0 <= v < 65536:
            return b"M" + struct.pack("<H", v)
        if -2**31 <= v < 2**31:
            return b"J" + struct.pack("<i", v)
        n = (v.bit_length() + 8) // 8
        return b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)

    fresh_frames = False

    def frame(self, fid):
        if fid in self.frames and not self.fresh_frames:
            self.out.write(self.get(self.frames[fid]))
            return
        self.out.write(b"}")
        self.frames[fid] = self.memoize()
        self.out.write(b"(")
        self.string("name")
        self.string(f"fn_{fid % 700}")
        self.string("filename")
        self.string(f"/src/pkg/module_{fid % 97}.py")
        self.string("line")
        self.out.write(self.int_bytes(fid % 3000 + 1))
        self.out.write(b"u")

    def stack(self, frames):
        self.out.write(b"]")
        self.memoize()
        self.out.write(b"(")
        for f in frames:
            self.frame(f)
        self.out.write(b"e")

    def entry(self, fields, frames):
        """A dict of (key, int or str) fields and a frames list, as Python writes it."""
        self.out.write(b"}")
        self.memoize()
        self.out.write(b"(")
        for k, v in fields:
            self.string(k)
            if isinstance(v, str):
                self.string(v)
            else:
                self.out.write(self.int_bytes(v))
        self.string("frames")
        self.stack(frames)
        self.out.write(b"u")


def write(out, target_bytes, seed=1, fresh_frames=False):
    rng = random.Random(seed)
    stacks = [[rng.randrange(FRAMES) for _ in range(rng.randint(*DEPTH))] for _ in range(STACKS)]
    w = Writer(out)
    w.fresh_frames = fresh_frames
    out.write(b"\x80\x04}")
    w.memoize()
    out.write(b"(")
    w.string("device_traces")
    out.write(b"]")
    w.memoize()
    out.write(b"]")
    w.memoize()
    live = {}  # addr -> (size, stack)
    free_addrs = list(range(0x7F0000000000, 0x7F0000000000 + 4096 * (1 << 21), 1 << 21))
    t = 1759252584000000
    in_batch = 0
    out.write(b"(")
    stack_bytes = {}  # stack index -> its frames' memo references, once every frame is memoized
    fixed = None      # the keys' and actions' memo references, once the first entry wrote them
    written = out.tell()
    pending = []
    while written < target_bytes:
        t += rng.randint(1, 40)
        s = rng.randrange(STACKS)
        if live and (len(live) > 2000 or rng.random() < 0.45):
            addr = rng.choice(list(live)) if len(live) < 64 else next(iter(live))
            size, _ = live.pop(addr)
            free_addrs.append(addr)
            action = "free_completed"
        else:
            addr = free_addrs.pop()
            size = rng.choice([512, 4096, 1 << 20, rng.randrange(512, 1 << 21, 512)])
            live[addr] = (size, stacks[s])
            action = "alloc"
        if fixed is not None and s in stack_bytes and action in w.strings and not fresh_frames:
            # The bytes Writer.entry() writes when every string and frame is in the memo already.
            b = b"".join((b"}\x94(", fixed["action"], w.get(w.strings[action]), fixed["addr"], w.int_bytes(addr),
                          fixed["size"], w.int_bytes(size), fixed["stream"], b"K\x00", fixed["time_us"],
                          w.int_bytes(t), fixed["frames"], b"]\x94(", stack_bytes[s], b"eu"))
            w.memo += 2
            pending.append(b)
            written += len(b)
        else:
            out.write(b"".join(pending))
            pending = []
            w.entry([("action", action), ("addr", addr), ("size", size), ("stream", 0), ("time_us", t)], stacks[s])
            stack_bytes[s] = b"".join(w.get(w.frames[f]) for f in stacks[s])
            fixed = {k: w.get(w.strings[k]) for k in ("action", "addr", "size", "stream", "time_us", "frames")}
            written = out.tell()
        in_batch += 1
        if in_batch == 1000:  # Python's pickler appends in batches of 1000
            pending.append(b"e(")
            written += 2
            in_batch = 0
            out.write(b"".join(pending))
            pending = []
    out.write(b"".join(pending))
    out.write(b"e")  # the last batch (Python writes APPEND for a single item; an APPENDS of one is equivalent)
    out.write(b"a")  # the device's list into device_traces
    w.string("segments")
    out.write(b"]")
    w.memoize()
    out.write(b"(")
    segments = sorted(live.items())
    for addr, (size, stack) in segments:
        out.write(b"}")
        w.memoize()
        out.write(b"(")
        for k, v in [("device", 0), ("address", addr), ("total_size", 1 << 21), ("allocated_size", size)]:
            w.string(k)
            out.write(w.int_bytes(v))
        w.string("blocks")
        out.write(b"]")
        w.memoize()
        w.entry([("address", addr), ("size", size), ("state", "active_allocated")], stack)
        out.write(b"au")
    out.write(b"eu.")
    return len(live)


def main():
    if sys.argv[1:] == ["--check"]:
        buf = io.BytesIO()
        write(buf, 200_000)
        snap = pickle.loads(buf.getvalue())
        again = pickle.loads(pickle.dumps(snap, protocol=4))
        assert snap == again and len(snap["device_traces"][0]) > 1000, "the stream does not unpickle as written"
        print(f"ok: {len(snap['device_traces'][0])} entries, {len(snap['segments'])} segments")
        return
    args = [a for a in sys.argv[1:] if a != "--fresh-frames"]
    target = int(args[1]) << 20 if len(args) > 1 else 1 << 30
    with open(args[0], "wb") as f:
        live = write(f, target, fresh_frames="--fresh-frames" in sys.argv)
        print(f"{sys.argv[1]}: {f.tell()} bytes, {live} blocks live at the end")


if __name__ == "__main__":
    main()
