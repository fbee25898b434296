#!/usr/bin/env python3
"""Crash safety by chaos: a CLI training (the shipped wine-like CSV, 8 steps an epoch, a
checkpoint every epoch, so checkpoints are written every few milliseconds) is killed with
SIGKILL at a random moment, N times; each killed run is continued with `train --resume`.

After every kill:
  - PRAGMA integrity_check of studio.db is "ok" (the sqlite3 CLI when installed, else Python's sqlite3);
  - the killed run is listed as crashed (`runs list --json`: a dead process reads as crashed);
  - its newest stored checkpoint exists, both files match the SHA-256 the store keeps (hashlib,
    independent of the engine), and the next `train --resume` loads it (the engine verifies its
    own checksums) and continues the run from its step;
  - litter of the kill (*.tmp, weights without a state file) is gone once the next run has started.
At the end the last run is resumed to a finish (exit 0, status finished).

usage: chaos_kill.py CLI WORKDIR [--kills N] [--seed S] [--source-dir DIR]
Prints one line per kill and a summary; exit 0 when every check passed, 1 otherwise.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

EXPERIMENT = """name: chaos
dataset:
  format: csv
  path: {source}/experiments/data/wine_like.csv
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  normalize: {{from_statistics: true}}
  loader: {{num_workers: 0}}
model:
  layers:
    - Linear: {{out_features: 32}}
    - ReLU
    - Linear: {{out_features: 3}}
    - CrossEntropy
optimizer: {{type: adam, lr: 0.003}}
training:
  epochs: 1000000
  batch_size: 32
  seed: 7
  checkpoint: {{every_epochs: 1, keep_last: 3, metric: val_loss}}
"""


def run_cli(cli, args, env, timeout=120):
    p = subprocess.run([cli] + args, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def integrity(db):
    if shutil.which("sqlite3"):
        p = subprocess.run(["sqlite3", "-readonly", db, "PRAGMA integrity_check"], capture_output=True, text=True)
        return (p.stdout.strip() or p.stderr.strip())
    con = sqlite3.connect("file:" + db + "?mode=ro", uri=True)
    try:
        return "\n".join(r[0] for r in con.execute("PRAGMA integrity_check"))
    finally:
        con.close()


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def litter(folder):
    """What a killed save leaves: temporary files and weights without their state file."""
    if not os.path.isdir(folder):
        return []
    names = set(os.listdir(folder))
    out = [n for n in names if n.endswith(".tmp")]
    for n in names:
        if n.endswith(".safetensors") and not n.endswith(".state.safetensors"):
            if n[: -len(".safetensors")] + ".state.safetensors" not in names:
                out.append(n)
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("workdir")
    ap.add_argument("--kills", type=int, default=50)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--source-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--max-delay", type=float, default=2.5, help="kill within this many seconds of the start")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)

    shutil.rmtree(a.workdir, ignore_errors=True)
    os.makedirs(a.workdir)
    ws = os.path.join(a.workdir, "ws")
    experiment = os.path.join(a.workdir, "chaos.yaml")
    with open(experiment, "w") as f:
        f.write(EXPERIMENT.format(source=os.path.abspath(a.source_dir)))
    env = dict(os.environ)
    env["HOME"] = os.path.join(a.workdir, "home")  # no user workspace or cache is touched
    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "TRAINSTUDIO_WORKSPACE"):
        env.pop(var, None)
    env.setdefault("OMP_NUM_THREADS", "1")
    db = os.path.join(ws, "studio.db")
    print(f"chaos: {a.kills} kills, seed {seed}, workspace {ws}", flush=True)

    failures = []
    outcomes = {}
    resume_from = None  # the newest run with a stored checkpoint
    pending_litter = None  # (run id, folder) whose litter must be gone after the next start
    for kill in range(1, a.kills + 1):
        args = ["train", experiment] if resume_from is None else ["train", "--resume", str(resume_from)]
        before = set()
        if os.path.exists(db):
            code, out, err = run_cli(a.cli, ["runs", "list", "--workspace", ws, "--json"], env)
            before = {r["id"] for r in json.loads(out)} if code == 0 else set()
        # Until a checkpoint is stored the window widens (up to 4x): on a loaded machine the
        # first epoch can outlast --max-delay, and the kills after a checkpoint are the point.
        window = a.max_delay if resume_from is not None else min(a.max_delay * 1.5 ** (kill - 1), a.max_delay * 4)
        delay = rng.uniform(0.05, window)
        p = subprocess.Popen([a.cli] + args + ["--workspace", ws, "--json"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        if p.poll() is not None:
            failures.append(f"kill {kill}: the training ended by itself (exit {p.returncode}): {p.stderr.read()[-800:]}")
            break
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stderr.close()

        problems = []
        check = integrity(db) if os.path.exists(db) else "no database yet"
        if check != "ok" and os.path.exists(db):
            problems.append(f"integrity_check: {check}")
        code, out, err = run_cli(a.cli, ["runs", "list", "--workspace", ws, "--json"], env) if os.path.exists(db) else (0, "[]", "")
        if code != 0:
            problems.append(f"runs list failed: {err.strip()}")
            runs = []
        else:
            runs = json.loads(out)
        new = [r for r in runs if r["id"] not in before]
        phase, detail = "before the run was recorded", ""
        if pending_litter and new:
            left = litter(pending_litter[1])
            if left:
                problems.append(f"litter of run {pending_litter[0]} still there after the next start: {left}")
            pending_litter = None
        if new:
            run = new[0]
            rid = run["id"]
            if run["status"] != "crashed":
                problems.append(f"run {rid} is listed as {run['status']}, not crashed")
            code, out, err = run_cli(a.cli, ["runs", "show", str(rid), "--workspace", ws, "--json"], env)
            shown = json.loads(out) if code == 0 else {}
            if code != 0:
                problems.append(f"runs show {rid} failed: {err.strip()}")
            if resume_from is not None:
                parent = shown.get("parent") or {}
                if parent.get("id") != resume_from or parent.get("relation") != "resume":
                    problems.append(f"run {rid} is not linked to run {resume_from} (parent {parent})")
            checkpoints = shown.get("checkpoints", [])
            folder = shown.get("checkpoints_dir", os.path.join(ws, "checkpoints", f"run_{rid}"))
            left = litter(folder)
            if left:
                pending_litter = (rid, folder)
            if checkpoints:
                last = max(checkpoints, key=lambda c: c["step"])
                path = last["absolute_path"]
                state = os.path.join(os.path.dirname(path), os.path.basename(last["state_path"]))
                if not os.path.exists(path) or not os.path.exists(state):
                    problems.append(f"run {rid}: newest stored checkpoint {path} is missing")
                elif sha256(path) != last["sha256"]:
                    problems.append(f"run {rid}: {path} does not match its stored SHA-256")
                phase = "killed while saving a checkpoint" if left else "killed between checkpoints"
                detail = f"last checkpoint epoch {last['epoch']} step {last['step']}"
                resume_from = rid
            else:
                phase = "killed while saving its first checkpoint" if left else "killed before its first checkpoint"
        outcomes[phase] = outcomes.get(phase, 0) + 1
        status = "ok" if not problems else "FAIL"
        run_text = f"run {new[0]['id']}" if new else "no run"
        print(f"kill {kill:2d} after {delay:4.2f} s: {run_text:7s} {phase}{': ' + detail if detail else ''}"
              f"{'; litter ' + ','.join(litter(pending_litter[1])) if pending_litter else ''} -> {status}", flush=True)
        for pr in problems:
            print(f"    {pr}", flush=True)
            failures.append(f"kill {kill}: {pr}")

    # The last run continued to its end.
    if resume_from is not None and not failures:
        code, out, err = run_cli(a.cli, ["runs", "show", str(resume_from), "--workspace", ws, "--json"], env)
        last_epoch = max(c["epoch"] for c in json.loads(out)["checkpoints"])
        code, out, err = run_cli(a.cli, ["train", "--resume", str(resume_from), "--epochs", str(last_epoch + 2),
                                         "--workspace", ws, "--json"], env, timeout=300)
        finished = False
        if code == 0:
            code2, out2, _ = run_cli(a.cli, ["runs", "list", "--workspace", ws, "--json"], env)
            newest = max(json.loads(out2), key=lambda r: r["id"])
            _, out3, _ = run_cli(a.cli, ["runs", "show", str(newest["id"]), "--workspace", ws, "--json"], env)
            parent = json.loads(out3).get("parent") or {}
            finished = newest["status"] == "finished" and parent.get("id") == resume_from
            print(f"final: run {newest['id']} resumed run {resume_from} from epoch {last_epoch} to {last_epoch + 2}: "
                  f"{newest['status']}", flush=True)
        if not finished:
            failures.append(f"the final resume of run {resume_from} did not finish: exit {code}: {err[-800:]}")
        check = integrity(db)
        if check != "ok":
            failures.append(f"final integrity_check: {check}")
    elif resume_from is None:
        failures.append("no kill happened after a checkpoint: raise --max-delay")

    print("outcomes: " + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items())), flush=True)
    if failures:
        print(f"chaos: {len(failures)} problem(s)", flush=True)
        for f in failures:
            print("  " + f)
        return 1
    print(f"chaos: all {a.kills} kills passed every check (seed {seed})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
