// Studio suites that need a run with an evaluation: the first samples of a real split written
// as IDX files, and the shipped experiment trained and evaluated on them through the jobs, as
// the studio would queue them.
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "idx_files.h"
#include "jobs/job.h"
#include "train/run_control.h"

namespace ts::test {

// The first `count` samples of a 28x28 single-channel split as plain IDX files (the reader takes
// .gz or not); returns each image's bytes, as the reader read them (byte / 255).
inline std::vector<std::vector<std::uint8_t>> writeIdxSubset(const Dataset& split, std::int64_t count,
                                                             const std::string& dir, const std::string& prefix)
{
    std::ofstream images(dir + "/" + prefix + "-images-idx3-ubyte", std::ios::binary);
    std::ofstream labels(dir + "/" + prefix + "-labels-idx1-ubyte", std::ios::binary);
    putBigEndian32(images, 0x00000803);
    putBigEndian32(images, std::uint32_t(count));
    putBigEndian32(images, 28);
    putBigEndian32(images, 28);
    putBigEndian32(labels, 0x00000801);
    putBigEndian32(labels, std::uint32_t(count));
    std::vector<std::vector<std::uint8_t>> out;
    std::vector<float> pixels(28 * 28);
    for (std::int64_t i = 0; i < count; ++i) {
        labels.put(char(split.get(i, pixels.data())));
        std::vector<std::uint8_t>& bytes = out.emplace_back();
        for (float p : pixels) bytes.push_back(std::uint8_t(std::lround(p * 255)));
        images.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    return out;
}

struct EvaluatedRun {
    std::int64_t runId = -1, evaluationId = -1;
    std::string error;  // empty when both jobs finished
};

// Trains `spec` into `workspaceDir`, then evaluates the run (best checkpoint, held-out split).
inline EvaluatedRun trainAndEvaluate(const ExperimentSpec& spec, const std::string& workspaceDir)
{
    struct Quiet : TrainListener {
        void onEvent(const TrainEvent&) override {}
    } quiet;
    JobEnvironment env;
    env.workspaceDir = workspaceDir;
    env.systemSampleSeconds = 0;
    RunControl control;
    EvaluatedRun out;
    TrainJob train;
    train.experiment = spec;
    const JobResult trained = runJob(train, env, control, quiet);
    if (trained.finished.outcome != FinishedEvent::Outcome::Finished) return {-1, -1, trained.finished.message.text};
    out.runId = trained.runId;
    EvaluateJob evaluate;
    evaluate.runId = out.runId;
    const JobResult evaluated = runJob(evaluate, env, control, quiet);
    if (evaluated.finished.outcome != FinishedEvent::Outcome::Finished) out.error = evaluated.finished.message.text;
    out.evaluationId = evaluated.evaluationId;
    return out;
}

}  // namespace ts::test
