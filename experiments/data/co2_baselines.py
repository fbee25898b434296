"""The baselines co2_lstm_forecast.yaml must beat, on its own test windows, in ppmv:
seasonal naive (each forecast week is the value 52 weeks earlier) and last value (every forecast
week is the window's last week). The split is the reader's (data/time_series_dataset.cpp): the
rows [floor(n * 0.85), n) are the test period, a window is 52 rows in and 4 out, stride 1.

Given the predictions of `trainstudio-cli eval RUN --split test --output predictions.csv`
(normalised, as the model trains), it also unscales them with the training period's mean and
standard deviation (rows [0, floor(n * 0.7))), checks the unscaled targets against the CSV's
rows, and prints the model's test MAE in ppmv.
Run: /usr/bin/python3 experiments/data/co2_baselines.py [predictions.csv]
"""
import csv
import math
import os
import sys

LENGTH, HORIZON, VALIDATION, TEST = 52, 4, 0.15, 0.15

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "co2.csv"), newline="") as f:
    co2 = [float(r["co2"]) for r in csv.DictReader(f)]
n = len(co2)
train_end, test_start = math.floor(n * (1 - VALIDATION - TEST) + 1e-9), math.floor(n * (1 - TEST) + 1e-9)
starts = [s for s in range(test_start, n - LENGTH - HORIZON + 1)]
steps = [(s, h) for s in starts for h in range(HORIZON)]
seasonal = sum(abs(co2[s + LENGTH + h] - co2[s + h]) for s, h in steps) / len(steps)
last = sum(abs(co2[s + LENGTH + h] - co2[s + LENGTH - 1]) for s, h in steps) / len(steps)
mean = sum(co2[:train_end]) / train_end
std = math.sqrt(sum((x - mean) ** 2 for x in co2[:train_end]) / train_end)
print(f"{len(starts)} test windows; training period mean {mean:.4f}, std {std:.4f} ppmv")
print(f"seasonal-naive MAE {seasonal:.4f} ppmv, last-value MAE {last:.4f} ppmv")

if len(sys.argv) > 1:
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(starts), (len(rows), len(starts))
    errors = []
    for row, s in zip(rows, starts):
        for h in range(HORIZON):
            actual = co2[s + LENGTH + h]
            assert abs(float(row[f"target_{h}"]) * std + mean - actual) < 1e-3, (s, h)
            errors.append(abs(float(row[f"predicted_target_{h}"]) * std + mean - actual))
    model = sum(errors) / len(errors)
    print(f"model MAE {model:.4f} ppmv: {100 * (1 - model / seasonal):.1f}% below seasonal naive, "
          f"{100 * (1 - model / last):.1f}% below last value")
