#!/usr/bin/python3
"""TrainStudio's Transformer templates in PyTorch: experiments/fashion_mnist_vit.yaml,
experiments/fortunes_char_gpt.yaml and experiments/fortunes_topics.yaml rebuilt as torch.nn.Modules whose attribute names are the
graph's node names, so a checkpoint's safetensors file loads with load_state_dict(strict=True).
MultiHeadAttention is nn.MultiheadAttention(batch_first=True) with its own parameter names
(in_proj_weight, in_proj_bias, out_proj.weight, out_proj.bias); a learned PositionalEncoding
is a [max_length, width] table named `weight`, added to the first T positions.

    /usr/bin/python3 docs/load_transformer_torch.py vit WEIGHTS IMAGES-idx3-ubyte [PREDICT.jsonl]
    /usr/bin/python3 docs/load_transformer_torch.py char-gpt WEIGHTS PROMPT [LENGTH [GENERATED.txt]]
    /usr/bin/python3 docs/load_transformer_torch.py topics WEIGHTS TEXTS.txt [PREDICT.jsonl]

vit: prints the first images' top class; given `trainstudio-cli predict --json` output for the
same IDX file, checks every sample's class and the largest probability difference.
topics: classifies each line of TEXTS.txt (padded with id 0 to the context; attention and the
mean skip the padding); given `trainstudio-cli predict --json --text LINE ...` output for the
same lines, checks every text's class and the largest probability difference.
char-gpt: writes greedily from PROMPT (the tokenizer comes from the checkpoint's state file
beside WEIGHTS); given `trainstudio-cli generate --temperature 0` output, checks it is the same
text. The block count and widths are read from the weights. Needs only python3-torch.
"""
import json
import struct
import sys

import torch
from torch import nn

from load_checkpoint_torch import read_idx_images, read_safetensors


class LearnedPositions(nn.Module):
    def __init__(self, max_length, width):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(max_length, width))

    def forward(self, x):  # x: [B, T, C]
        return x + self.weight[: x.shape[1]]


class TransformerStack(nn.Module):
    """Pre-norm blocks named b1_ln1, b1_attn, b1_ln2, b1_fc1, b1_fc2, b2_..., then ln_f:
    x + attn(ln1(x)), then x + fc2(gelu(fc1(ln2(x))))."""

    def __init__(self, weights, heads):
        super().__init__()
        self.blocks = 1
        while f"b{self.blocks + 1}_attn.in_proj_weight" in weights:
            self.blocks += 1
        width = weights["b1_attn.out_proj.weight"].shape[0]
        hidden = weights["b1_fc1.weight"].shape[0]
        for i in range(1, self.blocks + 1):
            setattr(self, f"b{i}_ln1", nn.LayerNorm(width))
            setattr(self, f"b{i}_attn", nn.MultiheadAttention(width, heads, batch_first=True))
            setattr(self, f"b{i}_ln2", nn.LayerNorm(width))
            setattr(self, f"b{i}_fc1", nn.Linear(width, hidden))
            setattr(self, f"b{i}_fc2", nn.Linear(hidden, width))
        self.ln_f = nn.LayerNorm(width)

    def run_blocks(self, x, causal, padding=None):
        mask = torch.triu(torch.ones(x.shape[1], x.shape[1], dtype=torch.bool), 1) if causal else None
        for i in range(1, self.blocks + 1):
            block = lambda name: getattr(self, f"b{i}_{name}")
            h = block("ln1")(x)
            x = x + block("attn")(h, h, h, attn_mask=mask, key_padding_mask=padding, need_weights=False)[0]
            x = x + block("fc2")(nn.functional.gelu(block("fc1")(block("ln2")(x))))
        return self.ln_f(x)


class FashionViT(TransformerStack):
    """experiments/fashion_mnist_vit.yaml: 7x7 patches as tokens, mean-pooled."""

    def __init__(self, weights):
        super().__init__(weights, heads=4)
        width = weights["patchify.weight"].shape[0]
        self.patchify = nn.Conv2d(1, width, 7, stride=7)
        self.pos = LearnedPositions(*weights["pos.weight"].shape)
        self.classifier = nn.Linear(width, weights["classifier.weight"].shape[0])

    def forward(self, x):
        x = self.patchify(x).flatten(2).permute(0, 2, 1)  # Flatten(start_dim 2), Permute([2, 1])
        x = self.run_blocks(self.pos(x), causal=False)
        return self.classifier(x.mean(1))  # SequencePool mean; CrossEntropy is the loss


class CharGpt(TransformerStack):
    """experiments/fortunes_char_gpt.yaml: next-character logits at every position."""

    def __init__(self, weights):
        super().__init__(weights, heads=4)
        self.embed = nn.Embedding(*weights["embed.weight"].shape)
        self.pos = LearnedPositions(*weights["pos.weight"].shape)
        self.head = nn.Linear(weights["head.weight"].shape[1], weights["head.weight"].shape[0])

    def forward(self, ids):  # [B, T] -> [B, T, vocabulary]
        return self.head(self.run_blocks(self.pos(self.embed(ids)), causal=True))


class FortunesTopics(TransformerStack):
    """experiments/fortunes_topics.yaml: padded character ids, masked attention, masked mean."""

    def __init__(self, weights):
        super().__init__(weights, heads=4)
        self.embed = nn.Embedding(*weights["embed.weight"].shape)
        self.pos = LearnedPositions(*weights["pos.weight"].shape)
        self.classifier = nn.Linear(weights["classifier.weight"].shape[1], weights["classifier.weight"].shape[0])

    def forward(self, ids):  # [B, T], 0 pads -> [B, classes]
        real = (ids != 0).unsqueeze(-1).float()  # TokenMask
        x = self.run_blocks(self.pos(self.embed(ids)), causal=False, padding=ids == 0)
        return self.classifier((x * real).sum(1) / real.sum(1))  # SequencePool mean over the real tokens


def load(model_class, path):
    weights, metadata = read_safetensors(path)
    model = model_class(weights)
    model.load_state_dict(weights, strict=True)  # every name and shape must match
    print(f"loaded {len(weights)} tensors of step {metadata.get('ts_step')} with strict=True")
    return model.eval()


def vit(weights_path, images_path, predict_path=None):
    model = load(FashionViT, weights_path)
    x = (read_idx_images(images_path) - 0.2860) / 0.3530  # the experiment's normalize
    with torch.inference_mode():
        probabilities = torch.softmax(model(x), dim=1)
    for i in range(3):
        p, c = probabilities[i].max(0)
        print(f"image {i}: class {int(c)} ({float(p):.4f})")
    if predict_path is None:
        return 0
    return agrees_with_predict(probabilities, predict_path, "samples", lambda i, line: line["index"])


def agrees_with_predict(probabilities, predict_path, what, row_of):
    """Compares `predict --json` output with these probabilities: 0 when every line's class is
    the same and every listed probability within 1e-5."""
    with open(predict_path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    agree, largest = 0, 0.0
    for i, line in enumerate(lines):
        row = probabilities[row_of(i, line)]
        agree += int(row.argmax()) == line["top_k"][0]["class"]
        for entry in line["top_k"]:
            largest = max(largest, abs(float(row[entry["class"]]) - entry["probability"]))
    print(f"{agree} of {len(lines)} {what} get predict's class; largest probability difference {largest:.2e}")
    return 0 if agree == len(lines) == len(probabilities) and largest < 1e-5 else 1


def char_gpt(weights_path, prompt, length=200, generated_path=None):
    model = load(CharGpt, weights_path)
    _, state = read_safetensors(weights_path.replace(".safetensors", ".state.safetensors"))
    kind, vocabulary = state["ts_tokenizer"].split("\n", 1)
    assert kind == "characters", f"this example decodes the characters tokenizer, not {kind}"
    ids = [vocabulary.index(c) for c in prompt]
    context = model.pos.weight.shape[0]
    with torch.inference_mode():
        for _ in range(int(length)):
            logits = model(torch.tensor([ids[-context:]]))
            ids.append(int(logits[0, -1].argmax()))  # temperature 0: the most likely character
    text = "".join(vocabulary[i] for i in ids)
    print(text)
    if generated_path is None:
        return 0
    with open(generated_path, encoding="utf-8") as f:
        theirs = f.read().rstrip("\n")
    same = theirs == text
    print("the same text as trainstudio-cli generate" if same else f"differs from trainstudio-cli generate:\n{theirs}")
    return 0 if same else 1


def topics(weights_path, texts_path, predict_path=None):
    model = load(FortunesTopics, weights_path)
    _, state = read_safetensors(weights_path.replace(".safetensors", ".state.safetensors"))
    kind, vocabulary = state["ts_tokenizer"].split("\n", 1)
    assert kind == "characters padded", f"this example encodes the padded characters tokenizer, not {kind}"
    context = model.pos.weight.shape[0]
    with open(texts_path, encoding="utf-8") as f:
        texts = [line.rstrip("\n") for line in f if line.strip()]
    ids = torch.zeros(len(texts), context, dtype=torch.long)
    for i, text in enumerate(texts):
        encoded = [1 + vocabulary.index(c) for c in text][:context]  # id 0 is the padding
        ids[i, : len(encoded)] = torch.tensor(encoded)
    with torch.inference_mode():
        probabilities = torch.softmax(model(ids), dim=1)
    for i in range(min(3, len(texts))):
        p, c = probabilities[i].max(0)
        print(f"text {i + 1}: class {int(c)} ({float(p):.4f})")
    if predict_path is None:
        return 0
    return agrees_with_predict(probabilities, predict_path, "texts", lambda i, line: i)


if __name__ == "__main__":
    commands = {"vit": vit, "char-gpt": char_gpt, "topics": topics}
    if len(sys.argv) < 4 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    sys.exit(commands[sys.argv[1]](*sys.argv[2:]))
