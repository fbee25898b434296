"""Writes co2.csv for co2_lstm_forecast.yaml: weekly atmospheric CO2 at Mauna Loa (ppmv,
March 1958 - December 2001; Keeling and Whorf, public domain), as Debian's python3-statsmodels
ships it (statsmodels/datasets/co2/co2.csv: dates as YYYYMMDD, 59 weeks without a value).

Dates become YYYY-MM-DD (a time column the time-series reader takes); a missing week's value is
interpolated linearly in time between its neighbours and marked interpolated=1, so the series
has a value every 7 days. Nothing else changes.
Run with Debian's python: /usr/bin/python3 experiments/data/make_co2.py
"""
import csv
import datetime
import os

SOURCE = "/usr/lib/python3/dist-packages/statsmodels/datasets/co2/co2.csv"

with open(SOURCE, newline="") as f:
    rows = list(csv.reader(f))[1:]
dates = [datetime.datetime.strptime(date, "%Y%m%d").date() for date, _ in rows]
values = [float(v) if v.strip() else None for _, v in rows]
assert len(rows) == 2284 and all((b - a).days == 7 for a, b in zip(dates, dates[1:]))

known = [i for i, v in enumerate(values) if v is not None]
filled = list(values)
for left, right in zip(known, known[1:]):
    for i in range(left + 1, right):  # the weeks between two measured ones
        w = (i - left) / (right - left)
        filled[i] = values[left] * (1 - w) + values[right] * w
assert all(v is not None for v in filled), "the series starts or ends without a value"

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "co2.csv")
with open(out, "w") as f:
    f.write("date,co2,interpolated\n")
    for d, v, raw in zip(dates, filled, values):
        f.write(f"{d.isoformat()},{round(v, 3):g},{int(raw is None)}\n")
print("wrote", out)
