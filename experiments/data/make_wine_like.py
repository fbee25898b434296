"""Writes wine_like.csv: a small synthetic 3-class table for tabular_example.yaml.

300 rows, 5 numeric features, an imbalanced label (150/90/60) and a vineyard group: each
vineyard grows one cultivar and shifts its features a little, so rows of one vineyard are
alike and a grouped validation split is the honest one. Deterministic (seeded).
"""
import random

rng = random.Random(7)
# Per cultivar: mean of alcohol, malic_acid, color_intensity, hue, proline.
centres = [(13.7, 2.0, 5.5, 1.06, 1100.0), (12.3, 1.9, 3.1, 1.05, 520.0), (13.2, 3.3, 7.4, 0.68, 630.0)]
spread = (0.5, 0.8, 1.2, 0.12, 180.0)
counts = [150, 90, 60]

rows = []
vineyard = 0
for label, n in enumerate(counts):
    for start in range(0, n, 10):  # ten rows per vineyard
        vineyard += 1
        shift = [rng.gauss(0, s * 0.3) for s in spread]
        for _ in range(min(10, n - start)):
            x = [c + d + rng.gauss(0, s) for c, d, s in zip(centres[label], shift, spread)]
            rows.append((f"v{vineyard:02d}", *x, label))
rng.shuffle(rows)

with open("wine_like.csv", "w") as f:
    f.write("vineyard,alcohol,malic_acid,color_intensity,hue,proline,cultivar\n")
    for v, a, m, c, h, p, label in rows:
        f.write(f"{v},{a:.2f},{m:.2f},{c:.2f},{h:.3f},{p:.0f},{label}\n")
