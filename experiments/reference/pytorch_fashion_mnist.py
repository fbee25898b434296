#!/usr/bin/env python3
"""The PyTorch peer of experiments/fashion_mnist_{mlp,cnn,vit}.yaml, for side-by-side speed.

Trains the same model with the same recipe (Adam lr 1e-3; the ViT AdamW lr 2e-3, weight decay
0.05 on its weight matrices; batch 128, inputs normalised with mean 0.2860 and std 0.3530) on
tensors already in memory, and prints one JSON line: steady-state training samples/s (forward,
loss, backward, optimizer step). The ViT is docs/load_transformer_torch.py's FashionViT.

    python3 pytorch_fashion_mnist.py --model mlp --threads 2 --steps 100
"""
import argparse
import gzip
import json
import os
import sys
import time

import numpy as np
import torch
from torch import nn

DATA = "/usr/share/datasets/fashion-mnist"


def load_images(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    return np.frombuffer(raw, dtype=np.uint8, offset=16).reshape(-1, 1, 28, 28)


def load_labels(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    return np.frombuffer(raw, dtype=np.uint8, offset=8).astype(np.int64)


def build_vit(width=64, hidden=128, blocks=4):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs"))
    from load_transformer_torch import FashionViT
    shapes = {"patchify.weight": (width, 1, 7, 7), "pos.weight": (16, width), "classifier.weight": (10, width),
              "b1_attn.out_proj.weight": (width, width), "b1_fc1.weight": (hidden, width)}
    shapes.update({f"b{i}_attn.in_proj_weight": (3 * width, width) for i in range(1, blocks + 1)})
    model = FashionViT({k: torch.empty(v) for k, v in shapes.items()})
    nn.init.normal_(model.pos.weight, 0.0, 0.02)
    return model


def build(name):
    if name == "vit":
        return build_vit()
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                             nn.Linear(256, 10))
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(3136, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["mlp", "cnn", "vit"], default="mlp")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--batch", type=int, default=128)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    images = torch.from_numpy((load_images(f"{DATA}/train-images-idx3-ubyte.gz") / 255.0 - 0.2860) / 0.3530).float()
    labels = torch.from_numpy(load_labels(f"{DATA}/train-labels-idx1-ubyte.gz"))
    model = build(args.model)
    model.train()
    if args.model == "vit":  # decay on weight matrices and kernels only, as the engine
        decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and n != "pos.weight"]
        rest = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and n != "pos.weight")]
        optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": rest, "weight_decay": 0.0}],
                                      lr=2e-3)
    else:
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    order = torch.randperm(len(images))

    def step(i):
        index = order[(i * args.batch) % (len(images) - args.batch):][:args.batch]
        optimizer.zero_grad()
        loss = loss_fn(model(images[index]), labels[index])
        loss.backward()
        optimizer.step()

    for i in range(5):  # warm-up
        step(i)
    start = time.perf_counter()
    for i in range(args.steps):
        step(i + 5)
    seconds = time.perf_counter() - start
    print(json.dumps({"framework": f"pytorch {torch.__version__}", "model": args.model, "threads": args.threads,
                      "batch": args.batch, "steps": args.steps,
                      "samples_per_s": round(args.steps * args.batch / seconds, 1),
                      "ms_per_step": round(1000 * seconds / args.steps, 3)}))


if __name__ == "__main__":
    main()
