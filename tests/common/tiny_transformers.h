// Two tiny Transformers that train in seconds, for the attention suites (engine and studio):
// a ViT of 2x2 patches (4 tokens of width 8, one 2-head attention layer) on the 4x4 IDX
// images of idx_files.h, and a causal character model (context 8, width 8, 2 heads) on a soup
// of a few short words.
#pragma once

#include <QString>

#include <random>
#include <set>
#include <string>

namespace ts::test {

inline QString tinyVitYaml(const QString& idxDirectory)
{
    return QStringLiteral(R"(name: tiny_vit
dataset:
  format: idx
  path: %1
  validation_fraction: 0.2
  normalize: {mean: [0.5], std: [0.25]}
  loader: {num_workers: 0}
model:
  inputs: {image: [1, 4, 4], label: {shape: [], dtype: i64}}
  nodes:
    - {name: patchify, op: Conv2d, inputs: [image], out_channels: 8, kernel_size: 2, stride: 2}
    - {name: flatten, op: Flatten, start_dim: 2}
    - {name: to_tokens, op: Permute, dims: [2, 1]}
    - {name: ln, op: LayerNorm}
    - {name: attn, op: MultiHeadAttention, heads: 2}
    - {name: add, op: Add, inputs: [attn, to_tokens]}
    - {name: pool, op: SequencePool, mode: mean}
    - {name: classifier, op: Linear, out_features: 10}
    - {name: loss, op: CrossEntropy, inputs: [classifier, label]}
optimizer: {type: adam, lr: 0.01}
training: {epochs: 2, batch_size: 16, seed: 5, device: cpu}
)")
        .arg(idxDirectory);
}

// ~1,500 words of "the cat sat on a mat ...": every character of "the cat ran" is in it, no "z".
inline std::string tinyWordSoup()
{
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran"};
    std::mt19937 rng(11);
    std::string soup;
    for (int i = 0; i < 1500; ++i) soup += std::string(words[rng() % std::size(words)]) + (i % 10 == 9 ? ".\n" : " ");
    return soup;
}

inline QString tinyGptYaml(const QString& textFile, const std::string& text)
{
    const std::size_t vocabulary = std::set<char>(text.begin(), text.end()).size();
    return QStringLiteral(R"(name: tiny_gpt
dataset: {format: text, path: %1, tokenizer: characters, context: 8, validation_fraction: 0.1, loader: {num_workers: 0}}
model:
  nodes:
    - {name: embed, op: Embedding, inputs: [tokens], num_embeddings: %2, embedding_dim: 8}
    - {name: pos, op: PositionalEncoding, kind: learned, max_length: 8}
    - {name: ln, op: LayerNorm}
    - {name: attn, op: MultiHeadAttention, heads: 2, causal: true}
    - {name: add, op: Add, inputs: [attn, pos]}
    - {name: head, op: Linear, out_features: %2}
    - {name: loss, op: CrossEntropy, inputs: [head, label]}
optimizer: {type: adam, lr: 0.01}
training: {epochs: 2, batch_size: 32, seed: 3, device: cpu}
)")
        .arg(textFile)
        .arg(vocabulary);
}

}  // namespace ts::test
