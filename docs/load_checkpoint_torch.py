#!/usr/bin/python3
"""A TrainStudio checkpoint's weights in PyTorch: the shipped Fashion-MNIST CNN
(experiments/fashion_mnist_cnn.yaml) rebuilt as a torch.nn.Module whose attribute names are
the graph's node names, so the safetensors file loads with load_state_dict as it is.

    /usr/bin/python3 docs/load_checkpoint_torch.py WEIGHTS.safetensors IMAGES-idx3-ubyte [PREDICT.jsonl]

Prints the first images' top class; given `trainstudio-cli predict --json` output for the same
IDX file, checks that every sample gets the same class and reports the largest probability
difference. Needs only python3-torch (Debian); the safetensors format is read here directly.
"""
import gzip
import json
import struct
import sys

import torch
from torch import nn

DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "I64": torch.int64, "I32": torch.int32}


def read_safetensors(path):
    """{name: tensor} and the metadata: 8 bytes of header length (little endian), the JSON
    header (dtype, shape, byte range per tensor), then the tensors' bytes, row-major."""
    with open(path, "rb") as f:
        length = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(length))
        data = f.read()
    metadata = header.pop("__metadata__", {})
    tensors = {}
    for name, info in header.items():
        start, end = info["data_offsets"]
        flat = torch.frombuffer(bytearray(data[start:end]), dtype=DTYPES[info["dtype"]])
        tensors[name] = flat.reshape(info["shape"])
    return tensors, metadata


class FashionCnn(nn.Module):
    """experiments/fashion_mnist_cnn.yaml; the attribute names are the graph's node names."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, padding=1)
        self.batchnorm1 = nn.BatchNorm2d(32)  # eps 1e-5, momentum 0.1: the engine's defaults
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.batchnorm2 = nn.BatchNorm2d(64)
        self.linear1 = nn.Linear(64 * 7 * 7, 128)
        self.classifier = nn.Linear(128, 10)

    def forward(self, x):
        x = nn.functional.max_pool2d(torch.relu(self.batchnorm1(self.conv1(x))), 2)
        x = nn.functional.max_pool2d(torch.relu(self.batchnorm2(self.conv2(x))), 2)
        x = torch.relu(self.linear1(torch.flatten(x, 1)))  # Flatten: [C, H, W] row-major, as torch
        return self.classifier(x)  # Dropout is the identity in eval mode; CrossEntropy is the loss


def read_idx_images(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
        magic, count, rows, cols = struct.unpack(">IIII", f.read(16))
        assert magic == 0x803, f"{path}: not an IDX images file"
        pixels = torch.frombuffer(bytearray(f.read(count * rows * cols)), dtype=torch.uint8)
    return pixels.reshape(count, 1, rows, cols).float() / 255  # the engine's [0, 1] scaling


def main():
    weights, metadata = read_safetensors(sys.argv[1])
    model = FashionCnn()
    # Every name and shape must match. TrainStudio keeps no num_batches_tracked; BatchNorm
    # accepts its absence (it matters only with momentum=None).
    model.load_state_dict(weights, strict=True)
    print(f"loaded {len(weights)} tensors of step {metadata.get('ts_step')} with strict=True")
    model.eval()

    images = read_idx_images(sys.argv[2])
    x = (images - 0.2860) / 0.3530  # the experiment's normalize: {mean: [0.2860], std: [0.3530]}
    with torch.inference_mode():
        probabilities = torch.softmax(model(x), dim=1)
    for i in range(3):
        p, c = probabilities[i].max(0)
        print(f"image {i}: class {int(c)} ({float(p):.4f})")
    if len(sys.argv) < 4:
        return
    with open(sys.argv[3]) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    agree, largest = 0, 0.0
    for line in lines:
        row = probabilities[line["index"]]
        agree += int(row.argmax()) == line["top_k"][0]["class"]
        for entry in line["top_k"]:
            largest = max(largest, abs(float(row[entry["class"]]) - entry["probability"]))
    print(f"{agree} of {len(lines)} samples get predict's class; largest probability difference {largest:.2e}")
    sys.exit(0 if agree == len(lines) and largest < 1e-4 else 1)


if __name__ == "__main__":
    main()
