#!/usr/bin/env python3
# Independent serving-step facts for the shared Kineto traces of serving
# engines (../shared/traces, or $STEPLINE_TRACES): reads the raw events with
# the standard library only and prints one TSV row per serving step. Its
# output (serving_step_facts.tsv) is what tests/analysis/serving_real_traces_test.cpp
# asserts against our step detection.
#
# Rules, written from the engines' naming, not from our code:
#   - host annotations only: complete ('X') events whose category is not
#     gpu_user_annotation (Kineto mirrors user annotations on the GPU rows);
#   - SGLang: "step[MODE bs=B toks=T ...]", MODE EXTEND -> prefill,
#     DECODE -> decode, MIXED -> mixed, IDLE -> null;
#   - vLLM: "execute_N_context_C(...)_generation_G(...)": tokens N, batch
#     C + G; C > 0 and G = 0 prefill, C = 0 and G > 0 decode, both mixed;
#   - the engine with more such steps is the trace's; SGLang on a tie.
# Columns: path, engine, index (in start order), name, dur_us (3 decimals,
# as recorded), phase, batch, tokens.
import gzip
import json
import os
import re
import sys

TRACES = ["tracelens/sglang_Qwen3-8B_prefilldecode.json.gz",
          "tracelens/vllm_decode_full_graph_capture_rank_0.pt.trace.json.gz"]
SGLANG = re.compile(r"^step\[(EXTEND|DECODE|MIXED|IDLE)(?: |\])")
VLLM = re.compile(r"^execute_(\d+)_context_(\d+)(?:\([^)]*\))?_generation_(\d+)")


def sglang_step(name):
    m = SGLANG.match(name)
    if not m:
        return None
    phase = {"EXTEND": "prefill", "DECODE": "decode", "MIXED": "mixed", "IDLE": "null"}[m.group(1)]
    body = name[5:name.index("]")]
    fields = dict(w.split("=", 1) for w in body.split(" ")[1:] if "=" in w)
    return phase, int(fields.get("bs", -1)), int(fields.get("toks", -1))


def vllm_step(name):
    m = VLLM.match(name)
    if not m:
        return None
    n, c, g = (int(x) for x in m.groups())
    phase = "mixed" if c and g else "prefill" if c else "decode" if g else "null"
    return phase, c + g, n


def main():
    root = os.environ.get("STEPLINE_TRACES") or os.path.join(os.path.dirname(__file__), "../../../../shared/traces")
    print("path\tengine\tindex\tname\tdur_us\tphase\tbatch\ttokens")
    for rel in TRACES:
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            print("missing " + path, file=sys.stderr)
            continue
        with gzip.open(path, "rt") as f:
            events = json.load(f)["traceEvents"]
        found = {"sglang": [], "vllm": []}
        for e in events:
            if e.get("ph") != "X" or e.get("cat") == "gpu_user_annotation":
                continue
            name = e.get("name", "")
            for engine, parse in (("sglang", sglang_step), ("vllm", vllm_step)):
                step = parse(name)
                if step is not None and float(e.get("dur", 0)) > 0:
                    found[engine].append((float(e["ts"]), name, float(e["dur"])) + step)
        engine = "vllm" if len(found["vllm"]) > len(found["sglang"]) else "sglang"
        for i, (ts, name, dur, phase, batch, tokens) in enumerate(sorted(found[engine])):
            print(f"{rel}\t{engine}\t{i}\t{name}\t{dur:.3f}\t{phase}\t{batch}\t{tokens}")
        if not found[engine]:
            print(f"{rel}\tnone\t-1\t\t0\tnull\t-1\t-1")


main()
