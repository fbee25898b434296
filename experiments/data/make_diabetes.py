"""Writes diabetes.csv for tabular_regression.yaml: Efron et al.'s diabetes data (442 patients,
10 baseline measurements, and a quantitative measure of disease progression one year later),
as Debian's python3-sklearn ships it (sklearn/datasets/data/diabetes_*.csv.gz, unscaled).

A header row is added and sex is written as 1/2 as in the source; nothing else changes.
Run with Debian's python: /usr/bin/python3 experiments/data/make_diabetes.py
"""
import gzip
import os

DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data"
COLUMNS = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6", "progression"]


def rows(name):
    with gzip.open(os.path.join(DATA, name), "rt") as f:
        return [line.split() for line in f if line.strip()]


features, targets = rows("diabetes_data_raw.csv.gz"), rows("diabetes_target.csv.gz")
assert len(features) == len(targets) == 442, (len(features), len(targets))
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "diabetes.csv")
with open(out, "w") as f:
    f.write(",".join(COLUMNS) + "\n")
    for x, (y,) in zip(features, targets):
        f.write(",".join(x + [f"{float(y):g}"]) + "\n")
print("wrote", out)
