#!/usr/bin/env python3
"""PyTorch at its best on the GPU: the peer tests/gpu/run.sh sets beside our CUDA backend.

The models of experiments/fashion_mnist_{mlp,cnn}.yaml (PyTorch default init), Adam lr 1e-3,
cross-entropy. Steady state: a full training step on random data already on the device, in
every mode PyTorch offers for speed, timed over --steps steps after warm-up (compilation
excluded), batches 128 and 1024. Then one real 60,000-sample epoch from the Fashion-MNIST
files (TS_FASHION_MNIST, default /usr/share/datasets/fashion-mnist) through
DataLoader(num_workers=2, pin_memory=True), batch 128.

Modes (each a fresh model and optimizer, seeded alike):
  eager_fp32           strict fp32 (TF32 off for matmul and cuDNN), Adam's default (foreach)
  eager_tf32           TF32 on for matmul and convolutions
  eager_bf16_autocast  torch.autocast(bfloat16), TF32 on
  eager_fused_tf32     Adam(fused=True), TF32 on
  compiled_fused_tf32  the whole step under torch.compile(mode="reduce-overhead") (CUDA
                       graphs), Adam(fused=True), TF32 on
Off CUDA "TF32 on" is a no-op. A mode the installed PyTorch or device cannot run is reported "unavailable: <why>"; one that
fails is reported with its error; neither stops the others.

    python3 pytorch_gpu_bench.py --json                      # on the GPU machine
    python3 pytorch_gpu_bench.py --device cpu --steps 3 --json   # smoke check anywhere (batch 128,
                                                                 # a few epoch batches)

Output: one JSON object per line (--json), flushed as it comes, so a timeout keeps what ran.
"""
import argparse
import contextlib
import gzip
import importlib
import json
import os
import sys
import time
import warnings

import torch
from torch import nn

MODES = ["eager_fp32", "eager_tf32", "eager_bf16_autocast", "eager_fused_tf32", "compiled_fused_tf32"]
MEAN, STD = 0.2860, 0.3530  # the experiments' normalize


def build(name):
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                             nn.Linear(256, 10))
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(3136, 128), nn.ReLU(), nn.Dropout(0.25), nn.Linear(128, 10))


class Unavailable(Exception):
    """This PyTorch or device cannot run the mode (not a failure of the mode)."""


def set_tf32(device, on):
    # Only the long-standing flags (newer PyTorch also has fp32_precision; mixing the two
    # APIs is refused there). cuDNN's flag defaults to True: strict fp32 must clear it.
    if device.type != "cuda":
        return  # no TF32 off CUDA: the modes that merely allow it run in fp32
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.backends.cuda.matmul.allow_tf32 = on
        torch.backends.cudnn.allow_tf32 = on


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


class Setup:
    """A fresh model, optimizer and step function for one mode."""

    def __init__(self, mode, model_name, device):
        torch.manual_seed(0)
        if mode.startswith("compiled") and not hasattr(torch, "compile"):
            raise Unavailable(f"torch.compile needs PyTorch 2 (have {torch.__version__})")
        if mode == "eager_tf32" and device.type != "cuda":
            raise Unavailable("TF32 is a CUDA mode")
        set_tf32(device, mode != "eager_fp32")
        self.model = build(model_name).to(device).train()
        fused = "fused" in mode
        if fused and not _supports_fused(device):
            raise Unavailable(f"Adam(fused=True) on {device.type} needs a newer PyTorch (have {torch.__version__})")
        try:
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3, **({"fused": True} if fused else {}))
        except (RuntimeError, TypeError, ValueError) as e:
            raise Unavailable(f"Adam(fused=True): {e}") from None
        self.loss_fn = nn.CrossEntropyLoss()
        self.autocast = (lambda: torch.autocast(device.type, dtype=torch.bfloat16)) if "bf16" in mode \
            else contextlib.nullcontext
        self.compiled = mode.startswith("compiled")
        self.step = self._eager_step
        if self.compiled:
            # A clean cache per model and batch: no recompile limit hit (a submodule loaded lazily).
            importlib.import_module("torch._dynamo").reset()
            self.step = torch.compile(self._eager_step, mode="reduce-overhead")

    def _eager_step(self, x, y):
        self.optimizer.zero_grad(set_to_none=True)
        with self.autocast():
            loss = self.loss_fn(self.model(x), y)
        loss.backward()
        self.optimizer.step()
        return loss

    def __call__(self, x, y):
        if self.compiled and hasattr(torch, "compiler") and hasattr(torch.compiler, "cudagraph_mark_step_begin"):
            torch.compiler.cudagraph_mark_step_begin()  # a new iteration: earlier graph outputs may be reused
        return self.step(x, y)


def _supports_fused(device):
    major, minor = (int(v) for v in torch.__version__.split(".")[:2])
    return device.type == "cuda" or (major, minor) >= (2, 4)


def steady_state(mode, model_name, batch, device, steps, warmup):
    """Samples/s of full training steps on data already on the device."""
    setup_start = time.perf_counter()
    step = Setup(mode, model_name, device)
    g = torch.Generator(device="cpu").manual_seed(1)
    batches = [(torch.randn(batch, 1, 28, 28, generator=g).to(device),
                torch.randint(0, 10, (batch,), generator=g).to(device)) for _ in range(8)]
    for i in range(warmup):  # compilation and CUDA-graph capture happen here, untimed
        step(*batches[i % len(batches)])
    sync(device)
    warmup_s = time.perf_counter() - setup_start
    start = time.perf_counter()
    for i in range(steps):
        step(*batches[i % len(batches)])
    sync(device)
    seconds = time.perf_counter() - start
    return {"samples_per_s": round(steps * batch / seconds, 1), "ms_per_step": round(1000 * seconds / steps, 4),
            "warmup_s": round(warmup_s, 2)}


def read_idx(path, offset):
    with gzip.open(path, "rb") as f:
        return f.read()[offset:]


def fashion_mnist(folder):
    images = read_idx(os.path.join(folder, "train-images-idx3-ubyte.gz"), 16)
    labels = read_idx(os.path.join(folder, "train-labels-idx1-ubyte.gz"), 8)
    x = torch.frombuffer(bytearray(images), dtype=torch.uint8).reshape(-1, 1, 28, 28)
    y = torch.frombuffer(bytearray(labels), dtype=torch.uint8).long()
    return (x.float() / 255.0 - MEAN) / STD, y


def real_epoch(mode, model_name, data, device, batch, max_batches):
    """Wall time of one epoch through the DataLoader, workers' start included (as ours)."""
    x, y = data
    step = Setup(mode, model_name, device)
    warm = (x[:batch].to(device), y[:batch].to(device))
    for _ in range(3):  # library handles and kernels chosen before the clock starts
        step(*warm)
    sync(device)
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=batch, shuffle=True,
                                         num_workers=2, pin_memory=device.type == "cuda", persistent_workers=False)
    samples = batches = 0
    start = time.perf_counter()
    for xb, yb in loader:
        step(xb.to(device, non_blocking=True), yb.to(device, non_blocking=True))
        samples += len(yb)
        batches += 1
        if max_batches and batches >= max_batches:
            break
    sync(device)
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 4), "samples": samples, "full_epoch": samples == len(y),
            "samples_per_s": round(samples / seconds, 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--steps", type=int, default=200, help="timed steps per mode, model and batch")
    parser.add_argument("--warmup", type=int, help="untimed steps first, compilation included (default: 10 on "
                                                    "CUDA, 1 elsewhere)")
    parser.add_argument("--batches", help="default: 128,1024 on CUDA, 128 elsewhere (a quick smoke check)")
    parser.add_argument("--models", default="mlp,cnn")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--data", default=os.environ.get("TS_FASHION_MNIST", "/usr/share/datasets/fashion-mnist"))
    parser.add_argument("--epoch-mode", help="the mode of the real epoch (default: eager_fused_tf32 on CUDA, "
                                             "eager_fp32 elsewhere)")
    parser.add_argument("--epoch-batches", type=int, default=-1,
                        help="stop the epoch after N batches (0: whole epoch; default: whole on CUDA, --steps on CPU)")
    parser.add_argument("--no-epoch", action="store_true")
    parser.add_argument("--json", action="store_true", help="JSON lines (default: readable lines)")
    args = parser.parse_args()

    def emit(record):
        if args.json:
            print(json.dumps(record), flush=True)
        else:
            print("  ".join(f"{k}={v}" for k, v in record.items()), flush=True)

    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        emit({"event": "pytorch_env", "torch": torch.__version__, "error": "CUDA not available"})
        return 77
    env = {"event": "pytorch_env", "torch": torch.__version__, "device": str(device)}
    if device.type == "cuda":
        env.update(gpu=torch.cuda.get_device_name(device), cuda=torch.version.cuda,
                   cudnn=torch.backends.cudnn.version())
    emit(env)

    cuda = device.type == "cuda"
    if args.warmup is None:
        args.warmup = 10 if cuda else 1
    models = args.models.split(",")
    batch_sizes = [int(b) for b in (args.batches or ("128,1024" if cuda else "128")).split(",")]
    modes = args.modes.split(",")
    # Eager modes first, then the epoch, compiled last: a timeout during compilation keeps the rest.
    ordered = [m for m in modes if not m.startswith("compiled")] + ["epoch"] + \
              [m for m in modes if m.startswith("compiled")]
    for mode in ordered:
        if mode == "epoch":
            if not args.no_epoch:
                run_epochs(args, device, models, emit)
            continue
        for model_name in models:
            for batch in batch_sizes:
                record = {"event": "pytorch_bench", "model": model_name, "batch": batch, "mode": mode,
                          "steps": args.steps}
                try:
                    record.update(steady_state(mode, model_name, batch, device, args.steps, args.warmup), status="ok")
                except Unavailable as e:
                    record.update(status="unavailable", error=f"unavailable: {e}")
                except Exception as e:  # noqa: BLE001 -- report it and go on with the other modes
                    record.update(status="error", error=f"{type(e).__name__}: {str(e)[:2000]}")
                emit(record)
    return 0


def run_epochs(args, device, models, emit):
    mode = args.epoch_mode or ("eager_fused_tf32" if device.type == "cuda" else "eager_fp32")
    limit = args.epoch_batches if args.epoch_batches >= 0 else (0 if device.type == "cuda" else args.steps)
    try:
        data = fashion_mnist(args.data)
    except OSError as e:
        for model_name in models:
            emit({"event": "pytorch_epoch", "model": model_name, "status": "unavailable",
                  "error": f"unavailable: no Fashion-MNIST at {args.data} ({e}); set TS_FASHION_MNIST"})
        return
    for model_name in models:
        record = {"event": "pytorch_epoch", "model": model_name, "mode": mode, "batch": 128,
                  "num_workers": 2}
        try:
            record.update(real_epoch(mode, model_name, data, device, 128, limit), status="ok")
        except Unavailable as e:
            record.update(status="unavailable", error=f"unavailable: {e}")
        except Exception as e:  # noqa: BLE001
            record.update(status="error", error=f"{type(e).__name__}: {str(e)[:2000]}")
        emit(record)


if __name__ == "__main__":
    sys.exit(main())
