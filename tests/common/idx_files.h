// Small IDX datasets for the label overlay and label check suites (engine and studio): n 4x4 images of three
// well-separated classes (class c lights every third pixel starting at c), written as the four
// IDX files a directory of the idx format holds, with chosen training labels flipped.
#pragma once
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace ts::test {

inline void putBigEndian32(std::ofstream& f, std::uint32_t v)
{
    const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    f.write(bytes, 4);
}

// Writes <prefix>-images-idx3-ubyte and <prefix>-labels-idx1-ubyte; sample i's true class is
// i % 3, its written label `labels[i]` when given (a flipped label), else the true one.
inline void writeIdxPair(const std::string& dir, const std::string& prefix, std::int64_t n, std::uint64_t seed,
                         double noise, const std::vector<std::int64_t>& labels = {})
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, noise);
    std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
    std::ofstream labelFile(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
    putBigEndian32(images, 0x00000803);
    putBigEndian32(images, std::uint32_t(n));
    putBigEndian32(images, 4);
    putBigEndian32(images, 4);
    putBigEndian32(labelFile, 0x00000801);
    putBigEndian32(labelFile, std::uint32_t(n));
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t truth = i % 3;
        for (int d = 0; d < 16; ++d)
            images.put(char(std::uint8_t(std::clamp((d % 3 == truth ? 190.0 : 60.0) + jitter(rng), 0.0, 255.0))));
        labelFile.put(char(labels.empty() ? truth : labels[std::size_t(i)]));
    }
}

// The true labels (i % 3) with the samples in `flipped` moved to the next class.
inline std::vector<std::int64_t> flippedLabels(std::int64_t n, const std::vector<std::int64_t>& flipped)
{
    std::vector<std::int64_t> labels(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) labels[std::size_t(i)] = i % 3;
    for (std::int64_t i : flipped) labels[std::size_t(i)] = (i % 3 + 1) % 3;
    return labels;
}

inline std::string fileBytes(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace ts::test
