// The lesson suite's tiny data and training helpers: 4x4 IDX images of three classes (class c
// lights every third pixel from c) with Gaussian noise and chosen labels, and listeners that
// stay quiet or stop a run after an epoch.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "idx_files.h"
#include "train/run_control.h"
#include "types/events.h"

namespace ts::test {

// 4x4 images whose class c (0..2) lights every third pixel from c, with Gaussian noise; `labels`
// as written (they may differ from the classes: label noise).
inline void writeImages(const std::string& dir, const std::string& prefix, const std::vector<int>& classes,
                 const std::vector<int>& labels, std::uint64_t seed, double noise)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, noise);
    std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
    std::ofstream labelFile(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
    putBigEndian32(images, 0x00000803);
    putBigEndian32(images, std::uint32_t(classes.size()));
    putBigEndian32(images, 4);
    putBigEndian32(images, 4);
    putBigEndian32(labelFile, 0x00000801);
    putBigEndian32(labelFile, std::uint32_t(classes.size()));
    for (std::size_t i = 0; i < classes.size(); ++i) {
        for (int d = 0; d < 16; ++d)
            images.put(char(std::uint8_t(std::clamp((d % 3 == classes[i] ? 170.0 : 80.0) + jitter(rng), 0.0, 255.0))));
        labelFile.put(char(labels[i]));
    }
}

inline std::vector<int> cycle(int n)
{
    std::vector<int> out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) out[std::size_t(i)] = i % 3;
    return out;
}

// A number a check wrote (lesson_runs.h score: three decimals, two significant digits below 0.01).
inline bool shows(const std::string& written, double value)
{
    return std::abs(std::stod(written) - value) <= 5e-4 * std::max(1.0, std::abs(value)) &&
           (std::abs(value) >= 0.01 || std::abs(std::stod(written) - value) <= 0.05 * std::abs(value));
}

struct Quiet : TrainListener {
    void onEvent(const TrainEvent&) override {}
};

// Stops the run after the evaluation of epoch `epoch` (its checkpoint is written by then).
struct StopAfterEpoch : TrainListener {
    RunControl& control;
    std::int64_t epoch;
    StopAfterEpoch(RunControl& c, std::int64_t e) : control(c), epoch(e) {}
    void onEvent(const TrainEvent& event) override
    {
        if (const auto* c = std::get_if<CheckpointEvent>(&event); c && c->record.epoch >= epoch) control.stop();
    }
};
}  // namespace ts::test
