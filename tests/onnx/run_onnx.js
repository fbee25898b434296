#!/usr/bin/env node
// Runs exported models with ONNX Runtime (onnxruntime-node, CPU), an implementation
// independent of TrainStudio's, for the export tests and measurements.
//
//   node run_onnx.js compare MANIFEST.json
//     MANIFEST: {"cases": [{"name", "model", "inputs": {NAME: {"file", "dtype", "dims"}},
//                          "expected": {NAME: {"file", "dims"}}}]}   (raw little-endian files)
//     prints one JSON line per case: {"name", "ok", "error", "outputs": {NAME: {"dims", "max_abs_diff"}}}
//   node run_onnx.js accuracy MODEL IMAGES_IDX[.gz] LABELS_IDX[.gz] MEAN STD [BATCH] [REPEATS]
//     Fashion-MNIST-style IDX files, normalised as the model's metadata says; prints
//     {"samples", "accuracy", "ms_per_batch", "samples_per_s"}.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const path = require('path');
const ort = require('onnxruntime-node');

const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array };

function readTyped(file, dtype) {
    const bytes = fs.readFileSync(file);
    const Type = ARRAYS[dtype];
    if (!Type) throw new Error(`unknown dtype ${dtype} for ${file}`);
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    return new Type(copy.buffer, 0, bytes.length / Type.BYTES_PER_ELEMENT);
}

async function compare(manifestPath) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const base = path.dirname(manifestPath);
    const at = (f) => (path.isAbsolute(f) ? f : path.join(base, f));
    const sessions = new Map();
    for (const c of manifest.cases) {
        const line = { name: c.name, ok: false, outputs: {} };
        try {
            if (!sessions.has(c.model))
                sessions.set(c.model, await ort.InferenceSession.create(at(c.model), { intraOpNumThreads: 1 }));
            const session = sessions.get(c.model);
            const feeds = {};
            for (const [name, spec] of Object.entries(c.inputs))
                feeds[name] = new ort.Tensor(spec.dtype, readTyped(at(spec.file), spec.dtype), spec.dims);
            const results = await session.run(feeds);
            line.ok = true;
            for (const [name, spec] of Object.entries(c.expected)) {
                const got = results[name];
                if (!got) throw new Error(`the model has no output '${name}'`);
                const want = readTyped(at(spec.file), 'float32');
                let diff = got.data.length === want.length ? 0 : Infinity;
                for (let i = 0; i < want.length && diff !== Infinity; ++i) {
                    const d = Math.abs(got.data[i] - want[i]);
                    if (!(d <= diff)) diff = Number.isNaN(d) ? Infinity : d;
                }
                line.outputs[name] = { dims: got.dims.map(Number), max_abs_diff: diff === Infinity ? 'inf' : diff };
            }
        } catch (e) {
            line.ok = false;
            line.error = String(e.message || e);
        }
        console.log(JSON.stringify(line));
    }
}

function readIdx(file) {
    let bytes = fs.readFileSync(file);
    if (file.endsWith('.gz')) bytes = zlib.gunzipSync(bytes);
    const magic = bytes.readUInt32BE(0);
    const rank = magic & 0xff;
    const dims = [];
    for (let i = 0; i < rank; ++i) dims.push(bytes.readUInt32BE(4 + 4 * i));
    return { dims, data: bytes.subarray(4 + 4 * rank) };
}

async function accuracy(model, imagesFile, labelsFile, mean, std, batch, repeats) {
    const images = readIdx(imagesFile), labels = readIdx(labelsFile);
    const [n, h, w] = images.dims;
    const per = h * w;
    const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1 });
    const input = session.inputNames[0], output = session.outputNames[0];
    let correct = 0, ms = 0, batches = 0;
    for (let r = 0; r < repeats; ++r) {
        for (let start = 0; start < n; start += batch) {
            const count = Math.min(batch, n - start);
            const x = new Float32Array(count * per);
            for (let i = 0; i < count * per; ++i) x[i] = (images.data[start * per + i] / 255 - mean) / std;
            const t0 = process.hrtime.bigint();
            const out = (await session.run({ [input]: new ort.Tensor('float32', x, [count, 1, h, w]) }))[output];
            ms += Number(process.hrtime.bigint() - t0) / 1e6;
            ++batches;
            if (r > 0) continue;
            const classes = out.dims[1];
            for (let i = 0; i < count; ++i) {
                let best = 0;
                for (let c = 1; c < classes; ++c) if (out.data[i * classes + c] > out.data[i * classes + best]) best = c;
                if (best === labels.data[start + i]) ++correct;
            }
        }
    }
    console.log(JSON.stringify({ samples: n, accuracy: correct / n, ms_per_batch: ms / batches,
                                 samples_per_s: (n * repeats) / (ms / 1000), batch, threads: 1 }));
}

const [mode, ...rest] = process.argv.slice(2);
const run = mode === 'compare' ? compare(rest[0])
          : mode === 'accuracy' ? accuracy(rest[0], rest[1], rest[2], Number(rest[3]), Number(rest[4]),
                                           Number(rest[5] || 128), Number(rest[6] || 1))
          : Promise.reject(new Error('usage: run_onnx.js compare MANIFEST | accuracy MODEL IMAGES LABELS MEAN STD [BATCH] [REPEATS]'));
run.catch((e) => { console.error(String(e.message || e)); process.exit(1); });
