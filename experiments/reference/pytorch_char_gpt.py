#!/usr/bin/python3
"""The PyTorch peer of experiments/fortunes_char_gpt.yaml: the same model, data, split, batch
order, optimizer, schedule and clipping, trained by Debian's python3-torch (1.13).

    /usr/bin/python3 experiments/reference/pytorch_char_gpt.py [--threads 2] [--steps N]
        [--init pytorch|ours|WEIGHTS.safetensors] [--log-steps K] [--eval-every 100]
    /usr/bin/python3 experiments/reference/pytorch_char_gpt.py --bench --steps 20
    /usr/bin/python3 experiments/reference/pytorch_char_gpt.py --attention-memory 1024

The model is docs/load_transformer_torch.py's CharGpt (parameter names as our graph's).
--init pytorch (default): each torch module's own initialisation (nn.Linear uniform
+-1/sqrt(fan_in) for weight and bias, nn.Embedding normal(0, 1), nn.LayerNorm 1 and 0,
nn.MultiheadAttention xavier_uniform in_proj, zero biases); PyTorch has no learned-position
module, so the table is normal(0, 0.02) as ours and GPT-2's. --init ours draws torch's
random numbers in our scheme instead (Linear kaiming_normal std sqrt(2/fan_in), zero bias: the
engine's Linear default); --init FILE starts from one of our checkpoints' weights.
Data as engine/data: text_dataset.cpp (the folder's regular files without extension or .txt
in name order, tokens = sorted distinct characters, block i = tokens [128 i, 128 i + 128),
targets shifted by one), open_dataset.cpp openText (100 contiguous stretches of blocks) split
by subset_dataset.cpp splitGroups, batches in sampler.cpp RandomSampler's order for
training.seed (mt19937_64 and the bit-exact draws of data/rng.h, rewritten below). The
schedule is optim/schedule.cpp's: cosine over the run's steps times a linear warm-up from 0.
--bench: steady-state training samples/s on batches already in memory, one JSON line.
--attention-memory T: torch's measured memory for one attention layer at T tokens, batch 32.
--threads 1 for training runs on a busy machine: with 2 threads, torch 1.13's per-matrix
batched products wait on each other's thread and ran 20x slower when other jobs shared the
two cores (the same numbers come out, only slower).
"""
import argparse
import json
import math
import os
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs"))
from load_transformer_torch import CharGpt  # noqa: E402
from load_checkpoint_torch import read_safetensors  # noqa: E402

DATA = "/usr/share/games/fortunes"
CONTEXT, WIDTH, BLOCKS, HIDDEN = 128, 128, 4, 512
LR, BETA2, WEIGHT_DECAY, WARMUP, MIN_LR, CLIP, BATCH = 1e-3, 0.99, 0.01, 100, 1e-4, 1.0, 32
VALIDATION_FRACTION, STRETCHES = 0.05, 100
M64 = (1 << 64) - 1


class MT19937_64:
    """std::mt19937_64 (the C++ standard's parameters), output for output."""

    def __init__(self, seed):
        self.mt = [seed & M64]
        for i in range(1, 312):
            self.mt.append((6364136223846793005 * (self.mt[-1] ^ (self.mt[-1] >> 62)) + i) & M64)
        self.index = 312

    def __call__(self):
        if self.index >= 312:
            mt = self.mt
            for i in range(312):
                x = (mt[i] & 0xFFFFFFFF80000000) | (mt[(i + 1) % 312] & 0x7FFFFFFF)
                mt[i] = mt[(i + 156) % 312] ^ (x >> 1) ^ (0xB5026F5AA96619E9 if x & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        return y ^ (y >> 43)


def mix64(x):  # data/rng.h: SplitMix64's finaliser
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def below(rng, n):  # data/rng.h: Lemire's multiply-and-reject
    m = rng() * n
    if m & M64 < n:
        threshold = ((1 << 64) - n) % n
        while m & M64 < threshold:
            m = rng() * n
    return m >> 64


def split_groups(groups, fraction, seed):
    """subset_dataset.cpp splitGroups: whole groups to validation, in a seeded order."""
    n = len(groups)
    target = int(math.floor(fraction * n + 0.5))  # llround
    sizes = {}
    for g in groups:
        sizes[g] = sizes.get(g, 0) + 1
    order = sorted(sizes)
    rng = MT19937_64(seed)
    for i in range(len(order), 1, -1):  # seededShuffle: multiply-shift Fisher-Yates
        j = (rng() * i) >> 64
        order[i - 1], order[j] = order[j], order[i - 1]
    chosen, taken = set(), 0
    for g in order:
        if taken + sizes[g] >= n:
            continue
        if taken >= target or (taken + sizes[g] - target > target - taken and taken > 0):
            break
        chosen.add(g)
        taken += sizes[g]
    train = [i for i, g in enumerate(groups) if g not in chosen]
    validation = [i for i, g in enumerate(groups) if g in chosen]
    return train, validation


def epoch_order(n, seed, epoch):
    """sampler.cpp RandomSampler::epochOrder: stream 1 of data/rng.h's key(seed, epoch)."""
    rng = MT19937_64(mix64(mix64(mix64(mix64(seed) ^ epoch) ^ 0) ^ 1))
    order = list(range(n))
    for i in range(n, 1, -1):
        j = below(rng, i)
        order[i - 1], order[j] = order[j], order[i - 1]
    return order


def load_blocks(path=DATA):
    names = sorted(os.path.join(path, f) for f in os.listdir(path))
    files = [f for f in names if not os.path.islink(f) and os.path.isfile(f)
             and os.path.splitext(f)[1] in ("", ".txt")]
    text = "".join(open(f, encoding="utf-8").read() for f in files)
    vocabulary = sorted(set(text))
    index = {c: i for i, c in enumerate(vocabulary)}
    tokens = torch.tensor([index[c] for c in text], dtype=torch.int64)
    blocks = (len(tokens) - 1) // CONTEXT
    inputs = tokens[: blocks * CONTEXT].view(blocks, CONTEXT)
    targets = tokens[1: blocks * CONTEXT + 1].view(blocks, CONTEXT)
    return files, vocabulary, inputs, targets


def shapes(vocabulary):
    """The weight shapes CharGpt reads its sizes from."""
    w = {"embed.weight": (vocabulary, WIDTH), "pos.weight": (CONTEXT, WIDTH), "head.weight": (vocabulary, WIDTH),
         "b1_fc1.weight": (HIDDEN, WIDTH), "b1_attn.out_proj.weight": (WIDTH, WIDTH)}
    w.update({f"b{i}_attn.in_proj_weight": (3 * WIDTH, WIDTH) for i in range(1, BLOCKS + 1)})
    return {k: torch.empty(v) for k, v in w.items()}


def build(vocabulary, init, embed_std=None):
    model = CharGpt(shapes(vocabulary))  # every module keeps torch's default initialisation
    nn.init.normal_(model.pos.weight, 0.0, 0.02)  # CharGpt's table starts at 0; ours normal(0, 0.02)
    if embed_std is not None:
        nn.init.normal_(model.embed.weight, 0.0, embed_std)
    if init == "ours":
        for name, module in model.named_modules():
            if isinstance(module, nn.Linear) and "out_proj" not in name:  # MultiheadAttention's keeps its own
                nn.init.normal_(module.weight, 0.0, math.sqrt(2.0 / module.in_features))
                nn.init.zeros_(module.bias)
    elif init != "pytorch":
        weights, metadata = read_safetensors(init)
        model.load_state_dict(weights, strict=True)
        print(f"initial weights: {init} (step {metadata.get('ts_step')})")
    return model


def optimizer_for(model):
    """AdamW's decay on 2-D weight matrices only, not on biases, norms, the embedding or the
    position table: the engine's default (ops/op.h decays())."""
    decay = [p for n, p in model.named_parameters() if p.dim() == 2 and n not in ("embed.weight", "pos.weight")]
    rest = [p for n, p in model.named_parameters() if not (p.dim() == 2 and n not in ("embed.weight", "pos.weight"))]
    print(f"weight decay {WEIGHT_DECAY} on {len(decay)} tensors ({sum(p.numel() for p in decay):,} values); "
          f"not on {len(rest)} ({sum(p.numel() for p in rest):,} values)")
    return torch.optim.AdamW([{"params": decay, "weight_decay": WEIGHT_DECAY}, {"params": rest, "weight_decay": 0.0}],
                             lr=LR, betas=(0.9, BETA2), eps=1e-8)


def learning_rate(step, total):  # optim/schedule.cpp: cosine(step) * warm-up factor
    cosine = MIN_LR + (LR - MIN_LR) * (1 + math.cos(math.pi * min(step, total) / total)) / 2
    return cosine * (step / WARMUP if step < WARMUP else 1.0)


@torch.no_grad()
def evaluate(model, inputs, targets, batch=64):
    model.eval()
    total = 0.0
    for i in range(0, len(inputs), batch):
        logits = model(inputs[i: i + batch])
        total += nn.functional.cross_entropy(logits.flatten(0, 1), targets[i: i + batch].flatten(), reduction="sum").item()
    model.train()
    loss = total / targets.numel()
    return loss, loss / math.log(2)


def train_step(model, optimizer, x, y, lr, clip=True):
    for group in optimizer.param_groups:
        group["lr"] = lr
    optimizer.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(model(x).flatten(0, 1), y.flatten())
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), CLIP) if clip else 0.0
    optimizer.step()
    return loss.item(), float(norm)


def bench(args, vocabulary, inputs, targets):
    """Samples/s of training steps on batches already in memory (side_by_side.sh); without
    clipping, as `trainstudio-cli bench` (forward, backward, optimizer)."""
    model = build(len(vocabulary), "pytorch")
    optimizer = optimizer_for(model)
    order = torch.randperm(len(inputs), generator=torch.Generator().manual_seed(0))

    def step(i):
        index = order[(i * BATCH) % (len(inputs) - BATCH):][:BATCH]
        train_step(model, optimizer, inputs[index], targets[index], LR, clip=False)

    for i in range(3):  # warm-up
        step(i)
    start = time.perf_counter()
    for i in range(args.steps):
        step(i + 3)
    seconds = time.perf_counter() - start
    print(json.dumps({"framework": f"pytorch {torch.__version__}", "model": "char_gpt", "threads": args.threads,
                      "batch": BATCH, "steps": args.steps, "samples_per_s": round(args.steps * BATCH / seconds, 1),
                      "ms_per_step": round(1000 * seconds / args.steps, 3)}))


def attention_memory(tokens, batch=BATCH):
    """Bytes torch's allocator holds for one causal nn.MultiheadAttention(128, 4) over
    [batch, tokens, 128], beyond its input: live after the forward (what the backward keeps)
    and the peak over forward + backward. The profiler records every CPU allocation and free
    ("[memory]" events, + and - bytes); their running sum in time order is the live total."""
    from torch.profiler import ProfilerActivity, profile
    attention = nn.MultiheadAttention(WIDTH, 4, batch_first=True)
    x = torch.randn(batch, tokens, WIDTH, requires_grad=True)
    mask = torch.triu(torch.ones(tokens, tokens, dtype=torch.bool), 1)
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        y = attention(x, x, x, attn_mask=mask, need_weights=False)[0]
        with torch.profiler.record_function("backward"):
            y.backward(torch.ones_like(y))
    events = sorted((e.start_us(), i, e.name(), e.nbytes()) for i, e in enumerate(prof.profiler.kineto_results.events())
                    if e.name() in ("[memory]", "backward"))
    live = peak = 0
    after_forward = None
    for _, _, name, nbytes in events:
        if name == "backward":
            after_forward = live if after_forward is None else after_forward
            continue
        live += nbytes
        peak = max(peak, live)
    mib = 1 << 20
    print(json.dumps({"framework": f"pytorch {torch.__version__}", "op": "nn.MultiheadAttention(128, 4), causal",
                      "batch": batch, "tokens": tokens, "input_mib": round(x.numel() * 4 / mib, 1),
                      "live_after_forward_mib": round(after_forward / mib, 1), "peak_mib": round(peak / mib, 1)}))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--steps", type=int, default=0, help="0: the template's (one epoch, 597 steps)")
    parser.add_argument("--init", default="pytorch", help="pytorch, ours, or a checkpoint's .safetensors")
    parser.add_argument("--embed-std", type=float, help="the embedding's normal std instead of 1 (xavier_normal: 0.0911)")
    parser.add_argument("--seed", type=int, default=0, help="torch's initialisation seed")
    parser.add_argument("--data-seed", type=int, default=0, help="training.seed of our run: the batch order")
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--log-steps", type=int, default=0, help="print the loss of the first K steps")
    parser.add_argument("--bench", action="store_true")
    parser.add_argument("--attention-memory", type=int, metavar="TOKENS", help="measure attention's memory and stop")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    if args.attention_memory:
        return attention_memory(args.attention_memory)

    files, vocabulary, inputs, targets = load_blocks()
    print(f"{len(files)} files, {inputs.numel() + 1:,}+ characters, vocabulary {len(vocabulary)}, {len(inputs)} blocks of {CONTEXT}")
    if args.bench:
        return bench(args, vocabulary, inputs, targets)
    groups = [i * STRETCHES // len(inputs) for i in range(len(inputs))]
    train, validation = split_groups(groups, VALIDATION_FRACTION, 0)
    print(f"train_samples {len(train)}, validation_samples {len(validation)}")
    steps_per_epoch = len(train) // BATCH
    total = args.steps or steps_per_epoch
    model = build(len(vocabulary), args.init, args.embed_std)
    optimizer = optimizer_for(model)
    val_x, val_y = inputs[validation], targets[validation]
    train_x, train_y = inputs[train], targets[train]
    if args.log_steps:
        print(f"step 0: val_loss {evaluate(model, val_x, val_y)[0]:.6f}")
    order, epoch = [], 0
    start = time.perf_counter()
    for step in range(total):
        k = step % steps_per_epoch
        if k == 0:
            order = epoch_order(len(train), args.data_seed, epoch)
            epoch += 1
        index = torch.tensor(order[k * BATCH: (k + 1) * BATCH])
        loss, norm = train_step(model, optimizer, train_x[index], train_y[index], learning_rate(step, total))
        if step < args.log_steps:
            print(f"step {step + 1} loss {loss:.6f} grad_norm {norm:.6f} lr {learning_rate(step, total):.3e}", flush=True)
        if args.eval_every and (step + 1) % args.eval_every == 0 and step + 1 < total:
            val_loss, bpc = evaluate(model, val_x, val_y)
            print(f"step {step + 1}: train_loss {loss:.4f} val_loss {val_loss:.4f} val_bpc {bpc:.4f}", flush=True)
    val_loss, bpc = evaluate(model, val_x, val_y)
    print(json.dumps({"framework": f"pytorch {torch.__version__}", "init": args.init, "embed_std": args.embed_std, "steps": total,
                      "val_loss": round(val_loss, 4), "val_bpc": round(bpc, 4),
                      "seconds": round(time.perf_counter() - start, 1)}))


if __name__ == "__main__":
    main()
