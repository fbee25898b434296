#!/usr/bin/env python3
"""`trainstudio-cli eval` against independent references (ctest eval_vs_sklearn).

Trains the shipped tabular example (3 classes, a validation split) for a few epochs, evaluates
its train split with `eval --output predictions.csv --json`, and recomputes from the CSV with
scikit-learn what the CLI's report says: confusion matrix, per-class / macro / micro / weighted
precision, recall, F1 and support, one-vs-rest ROC-AUC (per class and macro), average precision
per class, log loss; the Brier score in numpy as TrainStudio defines it (mean over samples of
sum_k (p_k - y_k)^2, not divided by K); ECE by the short reference of Guo et al. 2017 below.
The calibrated numbers are recomputed with the reported temperature, and a second evaluation
(of the val split, the one T is fitted on) checks with scipy that T minimises the NLL there.

usage: check_eval_sklearn.py TRAINSTUDIO_CLI EXPERIMENT.yaml WORKDIR
Exit 0: all agree to 1e-6; 1: a difference (each printed); 77: scikit-learn is not installed.
"""
import json
import os
import shutil
import subprocess
import sys

SKIP = 77
TOLERANCE = 1e-6

try:
    import numpy as np
    from sklearn import metrics
except ImportError as error:
    print(f"SKIP: scikit-learn is not installed ({error}); apt-get install python3-sklearn")
    sys.exit(SKIP)


def guo_ece(probabilities, labels, bins=15):
    """Expected calibration error as Guo et al. 2017 define it: bins (b/15, (b+1)/15]."""
    confidence = probabilities.max(axis=1)
    correct = probabilities.argmax(axis=1) == labels
    edges = np.linspace(0.0, 1.0, bins + 1)
    ece = 0.0
    for lower, upper in zip(edges[:-1], edges[1:]):
        in_bin = (confidence > lower) & (confidence <= upper)
        if in_bin.any():
            ece += in_bin.mean() * abs(correct[in_bin].mean() - confidence[in_bin].mean())
    return ece


def brier(probabilities, labels):
    onehot = np.eye(probabilities.shape[1])[labels]
    return float(np.mean(np.sum((probabilities - onehot) ** 2, axis=1)))


def log_probabilities(probabilities):
    """log p, an underflowed 0 read as the smallest positive float (2**-149), as TrainStudio does."""
    return np.log(np.maximum(probabilities, 2.0 ** -149))


def with_temperature(probabilities, temperature):
    z = log_probabilities(probabilities) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32).astype(np.float64)


class Checker:
    def __init__(self):
        self.failures = 0
        self.compared = 0

    def close(self, what, ours, reference, tolerance=TOLERANCE):
        ours, reference = np.asarray(ours, dtype=float), np.asarray(reference, dtype=float)
        self.compared += ours.size
        if ours.shape != reference.shape or not np.allclose(ours, reference, rtol=0, atol=tolerance, equal_nan=True):
            self.failures += 1
            print(f"DIFFERENT {what}:\n  trainstudio {ours.tolist()}\n  reference   {reference.tolist()}")


def run(cli, *args, env):
    done = subprocess.run([cli, *args], capture_output=True, text=True, env=env, timeout=300)
    if done.returncode != 0:
        sys.exit(f"`trainstudio-cli {' '.join(args)}` failed ({done.returncode}):\n{done.stderr}\n{done.stdout[-2000:]}")
    return done.stdout


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def evaluate(cli, run_id, split, csv_path, workspace, env):
    lines = json_lines(run(cli, "eval", str(run_id), "--split", split, "--output", csv_path, "--json",
                           "--workspace", workspace, env=env))
    reports = [l for l in lines if l.get("event") == "report"]
    done = [l for l in lines if l.get("event") == "done"]
    if len(reports) != 1 or len(done) != 1 or done[0]["outcome"] != "finished":
        sys.exit(f"eval --json printed {len(reports)} report and {len(done)} done lines:\n{lines}")
    table = np.genfromtxt(csv_path, delimiter=",", names=True)
    return reports[0], done[0], table


def main():
    cli, experiment, workdir = sys.argv[1:4]
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    env = dict(os.environ, HOME=os.path.join(workdir, "home"), OMP_NUM_THREADS="2")
    env.pop("XDG_CACHE_HOME", None)
    env.pop("XDG_DATA_HOME", None)
    workspace = os.path.join(workdir, "ws")
    # Few epochs: a model still making mistakes, so every metric has something to count.
    lines = json_lines(run(cli, "train", experiment, "--epochs", "4", "--set", "training.device=cpu", "--json",
                           "--workspace", workspace, env=env))
    run_id = next(l["run_id"] for l in lines if l.get("event") == "run")

    check = Checker()
    report, done, table = evaluate(cli, run_id, "train", os.path.join(workdir, "predictions.csv"), workspace, env)
    names = table.dtype.names
    if list(names[:4]) != ["index", "label", "predicted", "confidence"]:
        sys.exit(f"predictions.csv header: {names}")
    classes = report["classes"]
    labels = table["label"].astype(int)
    predicted = table["predicted"].astype(int)
    probabilities = np.column_stack([table[f"p_{k}"] for k in range(classes)])
    every_class = list(range(classes))
    if len(table) != report["samples"] or list(table["index"].astype(int)) != list(range(len(table))):
        sys.exit(f"predictions.csv has {len(table)} rows for {report['samples']} samples")
    check.close("predicted = first argmax", predicted, probabilities.argmax(axis=1), 0)
    check.close("confidence = max probability", table["confidence"], probabilities.max(axis=1), 0)
    if len(set(labels)) != classes or len(set(predicted)) < 2:
        sys.exit(f"the evaluation is degenerate (labels {sorted(set(labels))}, predictions {sorted(set(predicted))})")

    check.close("confusion matrix", report["confusion"], metrics.confusion_matrix(labels, predicted, labels=every_class), 0)
    p, r, f, s = metrics.precision_recall_fscore_support(labels, predicted, labels=every_class, zero_division=0)
    per_class = report["per_class"]
    check.close("per-class precision", [c["precision"] for c in per_class], p)
    check.close("per-class recall", [c["recall"] for c in per_class], r)
    check.close("per-class F1", [c["f1"] for c in per_class], f)
    check.close("per-class support", [c["support"] for c in per_class], s, 0)
    for average in ("macro", "micro", "weighted"):
        ap, ar, af, _ = metrics.precision_recall_fscore_support(labels, predicted, average=average, zero_division=0)
        ours = report[average]
        check.close(f"{average} precision, recall, F1", [ours["precision"], ours["recall"], ours["f1"]], [ap, ar, af])
    check.close("accuracy", report["top_k"][0]["accuracy"], metrics.accuracy_score(labels, predicted))
    for k in report["top_k"][1:]:
        check.close(f"top-{k['k']} accuracy", k["accuracy"],
                    metrics.top_k_accuracy_score(labels, probabilities, k=k["k"], labels=every_class))

    check.close("per-class ROC-AUC (one vs rest)", [c["roc_auc"] for c in per_class],
                [metrics.roc_auc_score(labels == k, probabilities[:, k]) for k in every_class])
    check.close("macro ROC-AUC (ovr)", report["macro_roc_auc"],
                metrics.roc_auc_score(labels, probabilities, multi_class="ovr", average="macro", labels=every_class))
    check.close("per-class average precision", [c["average_precision"] for c in per_class],
                [metrics.average_precision_score(labels == k, probabilities[:, k]) for k in every_class])

    calibration = report["calibration"]
    check.close("NLL (log_loss)", calibration["nll"], metrics.log_loss(labels, probabilities, labels=every_class))
    check.close("Brier (sum over classes)", calibration["brier"], brier(probabilities, labels))
    check.close("ECE (Guo, 15 bins)", calibration["ece"], guo_ece(probabilities, labels))
    confidence = probabilities.max(axis=1)
    check.close("reliability bin counts", [b["count"] for b in calibration["bins"]],
                [int(((confidence > b["lower"]) & (confidence <= b["upper"])).sum()) for b in calibration["bins"]], 0)

    temperature = report["temperature"]
    if temperature is None or report.get("temperature_fitted_on") != "val":
        sys.exit(f"no temperature fitted on the val split: {report.get('temperature')}, {report.get('temperature_fitted_on')}")
    scaled = with_temperature(probabilities, temperature)
    calibrated = report["calibrated"]
    check.close("calibrated NLL", calibrated["nll"], metrics.log_loss(labels, scaled, labels=every_class))
    check.close("calibrated ECE", calibrated["ece"], guo_ece(scaled, labels))
    check.close("calibrated Brier", calibrated["brier"], brier(scaled, labels))
    # The stored scalars (the done line prints them with 6 significant digits).
    for name, ours in (("train_ece", calibration["ece"]), ("train_nll", calibration["nll"]),
                       ("train_ece_calibrated", calibrated["ece"]), ("temperature", temperature)):
        check.close(f"stored {name}", done[name], ours, 1e-5 * max(1.0, abs(ours)))

    # T minimises the NLL of softmax(log p / T) on the split it was fitted on.
    val_report, _, val_table = evaluate(cli, run_id, "val", os.path.join(workdir, "val.csv"), workspace, env)
    val_labels = val_table["label"].astype(int)
    val_probabilities = np.column_stack([val_table[f"p_{k}"] for k in range(classes)])
    log_p = log_probabilities(val_probabilities)

    def nll(log_t):
        z = log_p / np.exp(log_t)
        z = z - z.max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(z).sum(axis=1)) - z[np.arange(len(z)), val_labels]))

    from scipy.optimize import minimize_scalar
    best = minimize_scalar(nll, bounds=(np.log(0.01), np.log(100.0)), method="bounded", options={"xatol": 1e-10})
    check.close("temperature (scipy's minimiser of the val NLL)", np.log(val_report["temperature"]), best.x, 1e-4)
    check.close("same temperature in both evaluations", val_report["temperature"], temperature, 1e-12)

    print(f"{check.compared} numbers compared over {len(table)} + {len(val_table)} samples, T = {temperature:.6g}, "
          f"{check.failures} different")
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
