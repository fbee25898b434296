// The studio tests' tiny MLP (784-32-10) on Fashion-MNIST at `dataPath`, 10% of the training
// split held out for validation, as experiment YAML: seconds an epoch on the CPU.
#pragma once

#include <QString>

inline QString tinyFashionYaml(const QString& dataPath, int epochs, int batchSize, double lr, int seed)
{
    return QStringLiteral(R"(name: tiny_fashion
dataset:
  format: idx
  path: %1
  validation_fraction: 0.1
  normalize: {mean: [0.2860], std: [0.3530]}
  loader: {num_workers: 1, prefetch: 4}
model:
  layers:
    - Flatten
    - Linear: {out_features: 32}
    - ReLU
    - Linear: {out_features: 10}
    - CrossEntropy
optimizer: {type: adam, lr: %4}
training: {epochs: %2, batch_size: %3, seed: %5, device: cpu}
)")
        .arg(dataPath)
        .arg(epochs)
        .arg(batchSize)
        .arg(lr)
        .arg(seed);
}

// The shipped wine-like CSV (sourceDir/experiments/data/wine_like.csv), a small MLP: 8 steps an
// epoch of a few milliseconds each, a checkpoint every `every` epochs (the last 3 kept).
inline QString tinyWineYaml(const QString& sourceDir, int epochs, int every)
{
    return QStringLiteral(R"(name: wine_faults
dataset:
  format: csv
  path: %1/experiments/data/wine_like.csv
  label_column: cultivar
  feature_columns: [alcohol, malic_acid, color_intensity, hue, proline]
  validation_fraction: 0.2
  normalize: {from_statistics: true}
  loader: {num_workers: 0}
model:
  layers:
    - Linear: {out_features: 32}
    - ReLU
    - Linear: {out_features: 3}
    - CrossEntropy
optimizer: {type: adam, lr: 0.003}
training:
  epochs: %2
  batch_size: 32
  seed: 7
  checkpoint: {every_epochs: %3, keep_last: 3}
)")
        .arg(sourceDir)
        .arg(epochs)
        .arg(every);
}
