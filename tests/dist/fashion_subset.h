// A real Fashion-MNIST subset for the distributed suites: the first `train` training and
// `test` test images of /usr/share/datasets/fashion-mnist, written as plain IDX files, so each
// training in a test takes about a second.
#pragma once
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts::test {

inline const char* fashionMnistDir() { return "/usr/share/datasets/fashion-mnist"; }

// The first `headerBytes + count * itemBytes` bytes of a gzip file, with the count in the
// header (bytes 4..7, big endian) replaced by `count`.
inline void copyIdxPrefix(const std::string& from, const std::string& to, std::size_t headerBytes, std::size_t itemBytes,
                          std::uint32_t count)
{
    gzFile in = gzopen(from.c_str(), "rb");
    if (!in) throw std::runtime_error("cannot open " + from);
    std::vector<unsigned char> bytes(headerBytes + count * itemBytes);
    const int got = gzread(in, bytes.data(), unsigned(bytes.size()));
    gzclose(in);
    if (got != int(bytes.size())) throw std::runtime_error(from + " is shorter than the subset");
    bytes[4] = (unsigned char)(count >> 24);
    bytes[5] = (unsigned char)(count >> 16);
    bytes[6] = (unsigned char)(count >> 8);
    bytes[7] = (unsigned char)count;
    std::ofstream(to, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

inline void writeFashionSubset(const std::string& dir, std::uint32_t train, std::uint32_t test)
{
    const std::string src = fashionMnistDir();
    copyIdxPrefix(src + "/train-images-idx3-ubyte.gz", dir + "/train-images-idx3-ubyte", 16, 784, train);
    copyIdxPrefix(src + "/train-labels-idx1-ubyte.gz", dir + "/train-labels-idx1-ubyte", 8, 1, train);
    copyIdxPrefix(src + "/t10k-images-idx3-ubyte.gz", dir + "/t10k-images-idx3-ubyte", 16, 784, test);
    copyIdxPrefix(src + "/t10k-labels-idx1-ubyte.gz", dir + "/t10k-labels-idx1-ubyte", 8, 1, test);
}

// The experiment's name and the subset at `dataDir` as its dataset, up to "model:".
inline std::string subsetHeaderYaml(const std::string& name, const std::string& dataDir)
{
    return "name: " + name + "\n"
           "dataset:\n"
           "  format: idx\n"
           "  path: " + dataDir + "\n"
           "  validation_fraction: 0.0\n"
           "  normalize: {mean: [0.2860], std: [0.3530]}\n"
           "  loader: {sampler: random, num_workers: 1, prefetch: 4}\n"
           "model:\n";
}

// The shipped MLP (experiments/fashion_mnist_mlp.yaml: 784-512-256-10, PyTorch init, Adam
// 1e-3, batch 128, no batch norm, no dropout) on the subset at `dataDir`.
inline std::string subsetMlpYaml(const std::string& dataDir, int epochs, const std::string& extraTraining = "")
{
    return subsetHeaderYaml("dist_mlp", dataDir) +
           "  layers:\n"
           "    - Flatten\n"
           "    - Linear: {out_features: 512, init: pytorch}\n"
           "    - ReLU\n"
           "    - Linear: {out_features: 256, init: pytorch}\n"
           "    - ReLU\n"
           "    - Linear: {out_features: 10, init: pytorch}\n"
           "    - CrossEntropy\n"
           "optimizer: {type: adam, lr: 0.001}\n"
           "training:\n"
           "  epochs: " + std::to_string(epochs) + "\n"
           "  batch_size: 128\n"
           "  seed: 3\n"
           "  device: cpu\n" + extraTraining;
}

// A small CNN with the shipped CNN's structure (experiments/fashion_mnist_cnn.yaml: conv, batch
// norm, ReLU, max-pool twice, then linear) at 8 and 16 channels, so two ranks train it in about a
// second; no dropout, so only batch norm can make ranks differ from one process.
inline std::string subsetCnnYaml(const std::string& dataDir, bool syncBatchNorm)
{
    return subsetHeaderYaml("dist_cnn", dataDir) +
           "  layers:\n"
           "    - Conv2d: {out_channels: 8, kernel_size: 3, padding: 1}\n"
           "    - BatchNorm2d\n"
           "    - ReLU\n"
           "    - MaxPool2d: {kernel_size: 2}\n"
           "    - Conv2d: {out_channels: 16, kernel_size: 3, padding: 1}\n"
           "    - BatchNorm2d\n"
           "    - ReLU\n"
           "    - MaxPool2d: {kernel_size: 2}\n"
           "    - Flatten\n"
           "    - Linear: {out_features: 10}\n"
           "    - CrossEntropy\n"
           "optimizer: {type: adam, lr: 0.001}\n"
           "training:\n"
           "  epochs: 1\n"
           "  batch_size: 128\n"
           "  seed: 3\n"
           "  device: cpu\n"
           "  sync_batchnorm: " + std::string(syncBatchNorm ? "true" : "false") + "\n";
}

}  // namespace ts::test
