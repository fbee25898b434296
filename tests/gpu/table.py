#!/usr/bin/env python3
"""The last thing tests/gpu/run.sh prints: ours beside every PyTorch mode, with the targets.

    python3 tests/gpu/table.py OUT_DIR

Reads the logs run.sh wrote in OUT_DIR (standard library only, any python3):
  ours_bench_{mlp,cnn}_{128,1024}.jsonl  trainstudio-cli bench --json
  ours_epoch_{mlp,cnn}.jsonl            trainstudio-cli train --epochs 1 --json
  pytorch.jsonl                         experiments/reference/pytorch_gpu_bench.py --json
  selftest.rc                           the selftest's exit status
Exit status 0 when the selftest passed and every target is met, 1 otherwise.
"""
import json
import os
import sys

# (model, batch) -> at least this many times the fastest PyTorch mode's samples/s.
SPEED_TARGETS = {("mlp", 128): 5.0, ("cnn", 128): 3.0, ("mlp", 1024): 1.5, ("cnn", 1024): 1.5}
EPOCH_TARGET_S = 0.25  # one 60,000-sample epoch with the loader, batch 128
MODES = ["eager_fp32", "eager_tf32", "eager_bf16_autocast", "eager_fused_tf32", "compiled_fused_tf32"]
SHORT = {"eager_fp32": "fp32", "eager_tf32": "tf32", "eager_bf16_autocast": "bf16", "eager_fused_tf32": "fused",
         "compiled_fused_tf32": "compiled"}


def records(path):
    """The JSON objects of a log, skipping lines that are not JSON (warnings, tracebacks)."""
    out = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return out


def last(items, **match):
    found = [r for r in items if all(r.get(k) == v for k, v in match.items())]
    return found[-1] if found else None


def failure(out, name):
    """Why one of our commands left no result: its exit status and last line of stderr."""
    try:
        with open(os.path.join(out, name + ".rc")) as f:
            rc = f.read().strip()
    except OSError:
        return f"{name}: not run"
    try:
        with open(os.path.join(out, name + ".err"), encoding="utf-8", errors="replace") as f:
            lines = [line.strip() for line in f if line.strip()]
    except OSError:
        lines = []
    status = "timed out" if rc in ("124", "137") else f"exit {rc}"
    return f"{name}: {status}" + (f": {lines[-1][:300]}" if lines else "")


def number(value, digits=0):
    return "-" if value is None else f"{value:,.{digits}f}"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", "/tmp/ts-gpu-out")
    theirs = records(os.path.join(out, "pytorch.jsonl"))
    failed = False
    problems = []

    try:
        with open(os.path.join(out, "selftest.rc")) as f:
            rc = int(f.read().strip() or -1)
    except (OSError, ValueError):
        rc = None
    selftest = {0: "PASS", 77: "NO GPU (77)", 1: "FAIL (1)", None: "not run"}.get(rc, f"ERROR (exit {rc})")
    failed |= rc != 0
    env = last(theirs, event="pytorch_env") or {}
    if not env:
        problems.append(failure(out, "pytorch"))
    print(f"selftest: {selftest}    PyTorch {env.get('torch', '?')} on {env.get('gpu', env.get('device', '?'))}")
    print()

    header = ["model", "batch", "ours/s"] + [SHORT[m] for m in MODES] + ["fastest", "ratio", "target", "result"]
    rows = [header]
    for (model, batch), target in SPEED_TARGETS.items():
        ours = last(records(os.path.join(out, f"ours_bench_{model}_{batch}.jsonl")), event="bench")
        ours_rate = ours.get("samples_per_s") if ours else None
        if not ours:
            problems.append(failure(out, f"ours_bench_{model}_{batch}"))
        cells, best, best_mode = [], None, None
        for mode in MODES:
            r = last(theirs, event="pytorch_bench", model=model, batch=batch, mode=mode)
            if r and r.get("status") == "ok":
                rate = r["samples_per_s"]
                cells.append(number(rate))
                if best is None or rate > best:
                    best, best_mode = rate, mode
            else:
                cells.append("n/a" if r and r.get("status") == "unavailable" else ("err" if r else "-"))
                if r and r.get("status") == "error":
                    problems.append(f"{model} b{batch} {mode}: {r.get('error', '')[:300]}")
        ratio = ours_rate / best if ours_rate and best else None
        ok = ratio is not None and ratio >= target
        failed |= not ok
        rows.append([model, str(batch), number(ours_rate)] + cells +
                    [f"{number(best)} ({SHORT[best_mode]})" if best else "-", f"{ratio:.2f}x" if ratio else "-",
                     f">={target:g}x", "PASS" if ok else "FAIL"])
    print_table(rows)
    print()

    rows = [["epoch (60k, b128)", "ours s", "pytorch s", "pytorch mode", "ratio ours/pytorch", "target", "result"]]
    for model in ("mlp", "cnn"):
        ours = last(records(os.path.join(out, f"ours_epoch_{model}.jsonl")), event="epoch")
        seconds = ours.get("seconds") if ours else None
        if not ours:
            problems.append(failure(out, f"ours_epoch_{model}"))
        r = last(theirs, event="pytorch_epoch", model=model)
        pt = r.get("seconds") if r and r.get("status") == "ok" else None
        if r and r.get("status") == "ok" and not r.get("full_epoch", True):
            pt = None  # a partial epoch (smoke check) compares with nothing
        ok = seconds is not None and seconds <= EPOCH_TARGET_S
        failed |= not ok
        rows.append([model, number(seconds, 3), number(pt, 3), (r or {}).get("mode", "-"),
                     f"{seconds / pt:.3f}" if seconds and pt else "-", f"<={EPOCH_TARGET_S:g} s",
                     "PASS" if ok else "FAIL"])
        if r and r.get("status") == "error":
            problems.append(f"pytorch epoch {model}: {r.get('error', '')[:300]}")
    print_table(rows)
    if problems:
        print("\nwhat failed:")
        for p in problems:
            print("  " + p)
    print("\nratio: ours / fastest PyTorch mode (higher is better); '-': no result (see the logs in " + out + ")")
    return 1 if failed else 0


def print_table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))))


if __name__ == "__main__":
    sys.exit(main())
