#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/.

Small valid files of every kind plus a few damaged ones, so a fuzzer starts from inputs that
reach deep into each reader. JPEG seeds are encoded by a few lines of C against libjpeg (a
build dependency), the rest here. Run it again after changing it; the files are committed.
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.path.join(HERE, "corpus")


def put(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def idx_images(count, rows, cols):
    pixels = bytes((i * 37 + 11) % 256 for i in range(count * rows * cols))
    return struct.pack(">IIII", 0x803, count, rows, cols) + pixels


def idx_labels(labels):
    return struct.pack(">II", 0x801, len(labels)) + bytes(labels)


def idx():
    sep = b"\n--\n"
    cases = {
        "two_4x4": (idx_images(2, 4, 4), idx_labels([1, 9])),
        "one_28x28": (idx_images(1, 28, 28), idx_labels([3])),
        "label_out_of_range": (idx_images(1, 2, 2), idx_labels([12])),
        "short_pixels": (idx_images(3, 4, 4)[:-5], idx_labels([0, 1, 2])),
        "count_mismatch": (idx_images(2, 2, 2), idx_labels([0])),
    }
    for name, (images, labels) in cases.items():
        put("fuzz_idx", name, images + sep + labels)
        put("fuzz_idx_gzip", name, gzip.compress(images, mtime=0) + sep + labels)
    # A header that asks for little in front of a stream that inflates to much more.
    put("fuzz_idx_gzip", "inflates_past_header", gzip.compress(idx_images(1, 2, 2) + bytes(200000), mtime=0) + sep + idx_labels([0]))


def cifar():
    record = lambda label: bytes([label]) + bytes((i * 7) % 256 for i in range(3072))
    put("fuzz_cifar", "two_records", record(3) + record(9))
    put("fuzz_cifar", "bad_label", record(11))
    put("fuzz_cifar", "partial_record", record(0)[:1000])


def csv():
    put("fuzz_csv", "numeric", "a,b,label\n1,2,0\n3.5,-4e2,1\n5,6,0\n")
    put("fuzz_csv", "quoted", 'name,x,label,group\n"a, b",1,cat,g1\n"say ""hi""",2,dog,g2\n"two\nlines",3,cat,g1\n')
    put("fuzz_csv", "ragged", "x,label\n1,0\n2\n3,1,4\n")
    put("fuzz_csv", "strings_labels", "x,y,label,group\n0.1,0.2,b,1\n0.3,0.4,a,2\n,0.5,a,1\n")
    with open(os.path.join(ROOT, "experiments", "data", "wine_like.csv"), "rb") as f:
        put("fuzz_csv", "wine_like_head", b"".join(f.readlines()[:12]).replace(b"cultivar", b"label").replace(b"vineyard", b"group"))


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, color_type, bit_depth=8, palette=None, interlace=0):
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    row_bytes = (width * channels * bit_depth + 7) // 8
    raw = b"".join(bytes([y % 5]) + bytes((x * 13 + y * 7) % 256 for x in range(row_bytes)) for y in range(height))
    out = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, interlace))
    if palette:
        out += png_chunk(b"PLTE", palette)
    return out + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


def pngs():
    put("fuzz_png", "grey_8x8", png(8, 8, 0))
    put("fuzz_png", "rgb_5x3", png(5, 3, 2))
    put("fuzz_png", "rgba_4x4", png(4, 4, 6))
    put("fuzz_png", "grey_alpha_3x3", png(3, 3, 4))
    put("fuzz_png", "palette_4x2", png(4, 2, 3, palette=bytes(range(48))))
    put("fuzz_png", "grey16_2x2", png(2, 2, 0, bit_depth=16))
    put("fuzz_png", "interlaced_9x9", png(9, 9, 2, interlace=1))
    put("fuzz_png", "truncated", png(8, 8, 2)[:60])
    # The header of a 20,000 x 20,000 image with no data behind it: refused before decoding.
    ihdr = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 0, 0, 0, 0))
    put("fuzz_png", "bomb_header", b"\x89PNG\r\n\x1a\n" + ihdr + png_chunk(b"IDAT", zlib.compress(bytes(20001 * 4))) + png_chunk(b"IEND", b""))


JPEG_WRITER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>
int main(int argc, char** argv) {
    int w = atoi(argv[2]), h = atoi(argv[3]), c = atoi(argv[4]), progressive = atoi(argv[5]);
    struct jpeg_compress_struct ci; struct jpeg_error_mgr err;
    ci.err = jpeg_std_error(&err); jpeg_create_compress(&ci);
    FILE* f = fopen(argv[1], "wb"); jpeg_stdio_dest(&ci, f);
    ci.image_width = w; ci.image_height = h; ci.input_components = c;
    ci.in_color_space = c == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&ci); jpeg_set_quality(&ci, 75, TRUE);
    if (progressive) jpeg_simple_progression(&ci);
    jpeg_start_compress(&ci, TRUE);
    unsigned char row[4096];
    while (ci.next_scanline < ci.image_height) {
        for (int i = 0; i < w * c; ++i) row[i] = (unsigned char)(i * 11 + ci.next_scanline * 5);
        JSAMPROW r = row; jpeg_write_scanlines(&ci, &r, 1);
    }
    jpeg_finish_compress(&ci); fclose(f); jpeg_destroy_compress(&ci); return 0;
}
"""


def jpegs():
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "write_jpeg")
        subprocess.run(["cc", "-x", "c", "-", "-o", exe, "-ljpeg"], input=JPEG_WRITER.encode(), check=True)
        for name, args in {"grey_8x8": (8, 8, 1, 0), "rgb_16x9": (16, 9, 3, 0), "progressive_12x12": (12, 12, 3, 1)}.items():
            path = os.path.join(tmp, name)
            subprocess.run([exe, path] + [str(a) for a in args], check=True)
            with open(path, "rb") as f:
                data = f.read()
            put("fuzz_jpeg", name, data)
            if name == "rgb_16x9":
                put("fuzz_jpeg", "truncated", data[: len(data) // 2])
                # The frame header claims 65,500 x 65,500: refused from the header.
                sof = data.find(b"\xff\xc0")
                put("fuzz_jpeg", "bomb_header", data[: sof + 5] + struct.pack(">HH", 65500, 65500) + data[sof + 9 :])


def experiments():
    for name in ("fashion_mnist_mlp", "fashion_mnist_cnn", "fashion_mnist_resnet", "tabular_example"):
        with open(os.path.join(ROOT, "experiments", name + ".yaml"), "rb") as f:
            put("fuzz_experiment", name, f.read())
    put("fuzz_experiment", "sweep_and_layout", """name: s
dataset: {kind: csv, path: t.csv, label: label}
model:
  layers:
    - Linear: {name: fc1, out_features: 8}
    - ReLU: {name: act}
    - Linear: {name: fc2, out_features: 2}
training: {epochs: 1, batch_size: 4}
optimizer: {type: sgd, lr: 0.1}
sweep:
  method: grid
  budget: 4
  metric: val_acc
  parameters:
    optimizer.lr: {values: [1e-3, 1e-2]}
    optimizer.type: {choices: [sgd, adamw]}
    optimizer.momentum: {uniform: [0.8, 0.99], count: 2, when: {optimizer.type: sgd}}
  halving: {min_epochs: 1, eta: 3}
layout:
  positions: {fc1: [0, 0], act: [0, 80], fc2: [0, 160]}
  blocks:
    - {name: head, nodes: [act, fc2]}
""")
    put("fuzz_experiment", "anchors", "name: &n a\nmodel: {layers: [&l {ReLU: {}}, *l]}\nother: *n\n")
    put("fuzz_experiment", "broken", "name: [unclosed\nmodel: {layers: - }\n")


def safetensors():
    def file(header, data=b""):
        h = header.encode()
        h += b" " * ((8 - len(h) % 8) % 8)
        return struct.pack("<Q", len(h)) + h + data
    put("fuzz_safetensors", "two_tensors", file('{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"I64","shape":[1,1],"data_offsets":[8,16]}}', bytes(16)))
    put("fuzz_safetensors", "escapes", file('{"\\u00e9\\ud83d\\ude00":{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"__metadata__":{"k":"a\\"b\\\\c\\n"}}', b"abc"))
    put("fuzz_safetensors", "empty", file("{}"))
    put("fuzz_safetensors", "overlap", file('{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[2,6]}}', bytes(6)))
    # A real checkpoint pair, written by the engine's own tests, is the best seed when present.
    for name, path in (("checkpoint_weights", os.environ.get("TS_SEED_WEIGHTS")), ("checkpoint_state", os.environ.get("TS_SEED_STATE"))):
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                put("fuzz_safetensors", name, f.read())


def checkpoint_state():
    put("fuzz_checkpoint_state", "unchanged", "")
    put("fuzz_checkpoint_state", "numbers", "ts_epoch=3\nts_step=-1\nts_seed=18446744073709551615\nts_loss_scale=1e308\n")
    put("fuzz_checkpoint_state", "lists", "ts_epoch_confusion=1,2,3\nts_epoch_top_k_correct=\nts_epoch_binary_scores=0.5,nan\n")
    put("fuzz_checkpoint_state", "removed", "ts_format\nts_weights_sha256\n")
    put("fuzz_checkpoint_state", "plateau", "ts_plateau_lr=0.1\nts_plateau_best=x\nts_plateau_has_best=maybe\nts_metric_val_acc=0.9\n")
    put("fuzz_checkpoint_state", "experiment", "ts_experiment_yaml=name: [x\n")


def main():
    if os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    for make in (idx, cifar, csv, pngs, jpegs, experiments, safetensors, checkpoint_state):
        make()
    total = sum(len(files) for _, _, files in os.walk(CORPUS))
    print(f"make_corpus.py: {total} seed files in {CORPUS}", file=sys.stderr)


if __name__ == "__main__":
    main()
