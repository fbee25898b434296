#!/usr/bin/env python3
"""Writes experiments/data/fashion_mnist_imbalanced/: a small, deliberately imbalanced subset of
Fashion-MNIST for the "fix an imbalanced dataset" lesson (experiments/lessons/fix_imbalance.yaml).

Training split: the first images of each class in the original training file, 400 of the
commonest classes down to 8 of the rarest (ratio 50:1); test split: the first 60 of every class
of the original test file, balanced, so macro F1 shows what the rare classes lose. Plain IDX files
gzipped (the reader takes either). Deterministic: run it again and the bytes are the same.

    python3 experiments/data/make_fashion_imbalanced.py [/usr/share/datasets/fashion-mnist]
"""
import gzip
import os
import struct
import sys

SOURCE = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/datasets/fashion-mnist"
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fashion_mnist_imbalanced")
TRAIN_PER_CLASS = [400, 400, 300, 200, 120, 80, 40, 20, 12, 8]  # by class 0..9
TEST_PER_CLASS = [60] * 10


def read(prefix):
    with gzip.open(os.path.join(SOURCE, prefix + "-images-idx3-ubyte.gz")) as f:
        magic, n, rows, cols = struct.unpack(">IIII", f.read(16))
        assert magic == 0x803
        images = f.read(n * rows * cols)
    with gzip.open(os.path.join(SOURCE, prefix + "-labels-idx1-ubyte.gz")) as f:
        magic, m = struct.unpack(">II", f.read(8))
        assert magic == 0x801 and m == n
        labels = f.read(n)
    return images, labels, rows * cols


def subset(prefix, per_class):
    images, labels, size = read(prefix)
    left = list(per_class)
    chosen = [i for i, c in enumerate(labels) if left[c] > 0 and not left.__setitem__(c, left[c] - 1)]
    assert not any(left), "the source split has too few images of a class"
    return [images[i * size:(i + 1) * size] for i in chosen], bytes(labels[i] for i in chosen)


def write(prefix, pixels, labels):
    # mtime=0: the same bytes on every run
    with open(os.path.join(OUT, prefix + "-images-idx3-ubyte.gz"), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(struct.pack(">IIII", 0x803, len(pixels), 28, 28) + b"".join(pixels))
    with open(os.path.join(OUT, prefix + "-labels-idx1-ubyte.gz"), "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(struct.pack(">II", 0x801, len(labels)) + labels)


os.makedirs(OUT, exist_ok=True)
write("train", *subset("train", TRAIN_PER_CLASS))
write("t10k", *subset("t10k", TEST_PER_CLASS))
print(OUT, sum(TRAIN_PER_CLASS), "training and", sum(TEST_PER_CLASS), "test images")
