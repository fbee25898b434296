#!/usr/bin/env python3
"""Bad inputs and faults, generated per class, against the real trainstudio-cli.

    probe.py CLI SCRATCH_DIR --source-dir SRC [--short] [--json REPORT]

Each case runs the CLI and is judged by what a user would see: it must not crash (killed by
a signal, exit >= 128), hang (timeout), lose data (the workspace's files change, or the run
store fails PRAGMA integrity_check), or answer weakly (no message, a message over the bound,
raw control characters, a message that does not name the place). The classes follow issue 37;
--short (CI) runs a deterministic sample of each class. Prints per class how many cases ran
and failed, and exits 1 if any failed.
"""
import argparse
import hashlib
import itertools
import json
import os
import random
import shutil
import socket
import sqlite3
import stat
import subprocess
import sys
import time

MESSAGE_LIMIT = 2000  # characters of stderr a refusal may print
TIMEOUT_S = 120


class Probe:
    def __init__(self, cli, scratch, source, short):
        self.cli, self.scratch, self.source, self.short = cli, scratch, source, short
        self.results = {}  # class -> [ran, failed]
        self.failures = []
        self.env = dict(os.environ, HOME=os.path.join(scratch, "home"), OMP_NUM_THREADS="2")
        self.env.pop("TRAINSTUDIO_WORKSPACE", None)
        self.env.pop("XDG_DATA_HOME", None)
        os.makedirs(self.env["HOME"], exist_ok=True)

    def run(self, args, timeout=TIMEOUT_S):
        started = time.monotonic()
        try:
            p = subprocess.run([self.cli] + args, env=self.env, capture_output=True, timeout=timeout,
                               stdin=subprocess.DEVNULL)
            return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), \
                time.monotonic() - started
        except subprocess.TimeoutExpired:
            return None, "", "", timeout

    def judge(self, cls, name, args, expect_exit=(1, 2), must_contain=(), unchanged=(), store=None, timeout=TIMEOUT_S):
        """Runs one case; records a failure with its reason."""
        before = {p: digest(p) for p in unchanged}
        code, out, err, _ = self.run(args, timeout)
        why = []
        if code is None:
            why.append("hung (no exit in %d s)" % timeout)
        elif code >= 128 or code < 0:
            why.append("crashed (exit %d)" % code)
        elif expect_exit and code not in expect_exit:
            why.append("exit %d, expected %s" % (code, expect_exit))
        if code not in (None, 0):
            if not err.strip():
                why.append("no message")
            if len(err) > MESSAGE_LIMIT:
                why.append("message of %d characters" % len(err))
            if any(ord(c) < 32 and c not in "\n\t" or ord(c) == 127 for c in err):
                why.append("raw control characters in the message")
        for text in must_contain:  # a tuple: any one of its texts
            if not any(t in err for t in (text if isinstance(text, tuple) else (text,))):
                why.append("message lacks %r" % (text,))
        for p, d in before.items():
            if digest(p) != d:
                why.append("%s changed" % p)
        if store and integrity(store) != "ok":
            why.append("run store damaged: " + integrity(store))
        tally = self.results.setdefault(cls, [0, 0])
        tally[0] += 1
        if why:
            tally[1] += 1
            self.failures.append({"class": cls, "case": name, "args": args, "why": why, "stderr": err[-600:]})

    def sample(self, cases, keep):
        """All cases, or in --short a fixed sample of `keep`."""
        cases = list(cases)
        if not self.short or len(cases) <= keep:
            return cases
        return random.Random(7).sample(cases, keep)


def digest(path):
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "absent"
    if not stat.S_ISREG(st.st_mode):
        return "mode %o" % st.st_mode
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def integrity(db):
    try:
        c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        try:
            return c.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            c.close()
    except sqlite3.Error as e:
        return str(e)


def csv_experiment(csv, features, outputs, epochs=1):
    return """name: probe
dataset:
  format: csv
  path: %s
  label_column: label
  validation_fraction: 0.2
  loader: {num_workers: 0}
model:
  inputs: {features: [%d], label: {shape: [], dtype: i64}}
  layers:
    - Linear: {out_features: 8}
    - ReLU
    - Linear: {name: head, out_features: %d}
    - CrossEntropy
optimizer: {type: adam, lr: 0.01}
training: {epochs: %d, batch_size: 8, seed: 1, device: cpu}
""" % (csv, features, outputs, epochs)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def csv_rows(rows, labels, features=2):
    lines = [",".join(["f%d" % i for i in range(features)] + ["label"])]
    for r in range(rows):
        lines.append(",".join([str((r * (i + 3)) % 7) for i in range(features)] + [str(labels[r % len(labels)])]))
    return "\n".join(lines) + "\n"


def trained_workspace(probe):
    """A workspace holding one finished run with checkpoints (the tabular example, 1 epoch)."""
    ws = os.path.join(probe.scratch, "ws")
    code, _, err, _ = probe.run(["train", os.path.join(probe.source, "experiments/tabular_example.yaml"),
                                 "--epochs", "1", "--device", "cpu", "--workspace", ws], 600)
    if code != 0:
        sys.exit("probe: could not train the workspace to probe: " + err[-800:])
    return ws


def output_paths(probe, ws):
    """Class 1: every command that writes where the user says, against every kind of target."""
    db = os.path.join(ws, "studio.db")
    checkpoints = sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ws, "checkpoints")) for f in fs)
    odd = os.path.join(probe.scratch, "odd")
    os.makedirs(odd, exist_ok=True)
    fifo = os.path.join(odd, "fifo")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    sock_path = os.path.join(odd, "sock")
    if not os.path.exists(sock_path):
        s = socket.socket(socket.AF_UNIX)
        s.bind(sock_path)
    links = {}
    for i, target in enumerate([db, db + "-wal", checkpoints[0], "/dev/null", os.path.join(ws, "checkpoints")]):
        link = os.path.join(odd, "link%d" % i)
        if not os.path.lexists(link):
            os.symlink(target, link)
        links[link] = target
    protected = [db, db + "-wal", db + "-shm", db + "-journal", os.path.join(ws, "checkpoints", "new.csv"),
                 os.path.join(ws, "checkpoints", "..", "studio.db"), os.path.join(ws, "checkpoints", "run_1", "x.onnx")]
    protected += checkpoints
    specials = ["/dev/null", "/dev/zero", "/dev/full", fifo, sock_path, os.path.join(ws, "checkpoints"), ws, odd,
                os.path.join(odd, "missing", "x.csv"), os.path.join(db, "x.csv")]
    targets = protected + specials + list(links)
    experiment = os.path.join(probe.source, "experiments/tabular_example.yaml")
    commands = {
        "runs export": lambda t: ["runs", "export", "1", "--output", t, "--workspace", ws],
        "export onnx": lambda t: ["export", "1", "--format", "onnx", "--output", t, "--workspace", ws],
        "eval --output": lambda t: ["eval", "1", "--output", t, "--workspace", ws],
        "slurm --output": lambda t: ["slurm", experiment, "--nodes", "1", "--gpus-per-node", "1", "--output", t,
                                     "--workspace", ws],
    }
    watched = [db] + checkpoints
    cases = list(itertools.product(commands, targets))
    for command, target in probe.sample(cases, 24):
        probe.judge("output paths", command + " -> " + target, commands[command](target),
                    must_contain=(), unchanged=watched + [target] if os.path.lexists(target) else watched, store=db)


def data_against_model(probe):
    """Class 2: data that does not fit the model, refused by validate before any step."""
    d = os.path.join(probe.scratch, "data")
    os.makedirs(d, exist_ok=True)
    cases = []
    for classes in range(2, 7):
        csv = write(os.path.join(d, "c%d.csv" % classes), csv_rows(60, list(range(classes))))
        for outputs in range(1, 9):
            if outputs != classes:
                cases.append(("%d classes, %d outputs" % (classes, outputs), csv, 2, outputs, "out_features to %d" % classes))
        for features in (1, 3, 5, 100):
            cases.append(("2 features, model takes %d" % features, csv, features, classes, "takes [%d]" % features))
    for bad in ("7", "12", "99", "-1", "cat"):
        rows = csv_rows(40, [0, 1, 2]).splitlines()
        rows[9] = "1,1," + bad
        csv = write(os.path.join(d, "label_%s.csv" % bad), "\n".join(rows) + "\n")
        cases.append(("label %s in a 3-class model" % bad, csv, 2, 3, "out_features to 4"))
    for name, csv, features, outputs, expected in probe.sample(cases, 12):
        yaml = write(os.path.join(d, "e.yaml"), csv_experiment(csv, features, outputs))
        probe.judge("data against model", name, ["validate", yaml], expect_exit=(1,), must_contain=(expected,))


def changed_data_resume(probe):
    """Class 2b: a resume on data that changed since its checkpoint is refused."""
    d = os.path.join(probe.scratch, "resume")
    os.makedirs(d, exist_ok=True)
    changes = [("fewer rows", lambda: csv_rows(40, [0, 1, 2])), ("more rows", lambda: csv_rows(400, [0, 1, 2])),
               ("other labels", lambda: csv_rows(200, [0, 1, 2, 3])), ("emptied", lambda: "f0,f1,label\n")]
    for i, (name, text) in enumerate(probe.sample(changes, 2)):
        csv = write(os.path.join(d, "d%d.csv" % i), csv_rows(200, [0, 1, 2]))
        yaml = write(os.path.join(d, "d%d.yaml" % i), csv_experiment(csv, 2, 3, 3))
        ws = os.path.join(d, "ws%d" % i)
        if probe.run(["train", yaml, "--epochs", "1", "--workspace", ws])[0] != 0:
            sys.exit("probe: could not train " + yaml)
        write(csv, text())
        # Data that no longer reads at all is refused by its reader, naming the file instead.
        probe.judge("changed data", name, ["train", "--resume", "1", "--epochs", "3", "--workspace", ws], expect_exit=(1,),
                    must_contain=(("--allow-changed-data", "d%d.csv:" % i),),
                    store=os.path.join(ws, "studio.db"))


def every_command_helps(probe):
    """Class 7: every command answers --help and -h on stdout, exit 0."""
    commands = ["train", "eval", "predict", "export", "lr-find", "sweep", "slurm", "data check", "data labels",
                "data mark", "validate", "info", "plan", "bench", "bench-store", "runs", "selftest"]
    cases = [(c, flag) for c in commands for flag in ("--help", "-h")]
    for command, flag in probe.sample(cases, 8):
        args = command.split() + [flag]
        code, out, err, _ = probe.run(args, 60)
        tally = probe.results.setdefault("help", [0, 0])
        tally[0] += 1
        if code != 0 or "sage" not in out:
            tally[1] += 1
            probe.failures.append({"class": "help", "case": " ".join(args), "args": args,
                                   "why": ["exit %s, no usage on stdout" % code], "stderr": err[-600:]})


def numbers_out_of_range(probe):
    """Class 7b: numeric options refuse bad values naming the option and the range."""
    experiment = os.path.join(probe.source, "experiments/tabular_example.yaml")
    options = [(["train", experiment, "--epochs"], "--epochs"), (["train", experiment, "--threads"], "--threads"),
               (["lr-find", experiment, "--steps"], "--steps"), (["lr-find", experiment, "--min-lr"], "--min-lr"),
               (["bench", "--batch"], "--batch"), (["bench", "--steps"], "--steps"), (["plan", "--batch"], "--batch"),
               (["data", "check", experiment, "--threshold"], "--threshold"),
               (["slurm", experiment, "--gpus-per-node", "1", "--nodes"], "--nodes")]
    values = ["-1", "abc", "1e999", "99999999999999999999", "nan", "", "3.5", "0x10", "--", "1" * 5000]
    ws = os.path.join(probe.scratch, "numbers_ws")
    for (args, option), value in probe.sample(itertools.product(options, values), 16):
        # A value in range but impossible with the others (--min-lr above --max-lr) names the setting.
        named = (option, option.lstrip("-").replace("-", "_"))
        probe.judge("numbers", "%s %r" % (option, value[:20]), args + [value, "--workspace", ws] if args[0] != "bench"
                    and args[0] != "plan" else args + [value], must_contain=(named,) if value != "3.5" else ())


def hostile_values(probe):
    """Class 5: long values and control characters come back bounded and escaped."""
    experiment = os.path.join(probe.source, "experiments/tabular_example.yaml")
    keys = ["optimizer.type", "schedule.type", "dataset.format", "dataset.label_column", "training.device",
            "dataset.path", "model.layers", "training.epochs"]
    values = ["x" * 100, "y" * 100000, "a\x1b[31mred\x1b[0m", "line\nforged row", "bell\a", "\u202eevil",
              "\xff\xfe", "'quote\"", "z" * 120000]
    for key, value in probe.sample(itertools.product(keys, values), 14):
        # The dataset's keys are read with the data; the rest without it.
        data = [] if key.startswith("dataset.") else ["--no-data"]
        probe.judge("bounded, escaped", "%s=%r" % (key, value[:24]), ["validate", experiment, "--set", key + "=" + value] + data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("scratch")
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    shutil.rmtree(a.scratch, ignore_errors=True)
    os.makedirs(a.scratch)
    probe = Probe(os.path.abspath(a.cli), os.path.abspath(a.scratch), os.path.abspath(a.source_dir), a.short)
    ws = trained_workspace(probe)
    output_paths(probe, ws)
    data_against_model(probe)
    changed_data_resume(probe)
    every_command_helps(probe)
    numbers_out_of_range(probe)
    hostile_values(probe)
    total = sum(r[0] for r in probe.results.values())
    failed = sum(r[1] for r in probe.results.values())
    for cls, (ran, bad) in probe.results.items():
        print("%-22s %4d cases, %d failed" % (cls, ran, bad))
    for f in probe.failures:
        print("FAILED [%s] %s: %s\n  %s" % (f["class"], f["case"], "; ".join(f["why"]), f["stderr"].strip()[-300:]))
    if a.json:
        with open(a.json, "w") as out:
            json.dump({"results": probe.results, "failures": probe.failures}, out, indent=1)
    print("%d passed, %d failed" % (total - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
