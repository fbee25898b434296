// Learning rate 10 on small IDX files (idx_files.h: 4x4 images of three classes): a 16-unit MLP
// that trains about an epoch (15 steps of 16; seed 3), then diverges to a NaN loss. The provoked
// case of the diagnostics suites (engine and studio).
#pragma once
#include <string>

#include "types/experiment_spec.h"

namespace ts::test {

inline ExperimentSpec divergingSpec(const std::string& dataDir)
{
    ExperimentSpec spec;
    spec.name = "diverging";
    spec.dataset.format = "idx";
    spec.dataset.path = dataDir;
    spec.dataset.validationFraction = 0.0;
    spec.dataset.normalizeMean = {0.5};
    spec.dataset.normalizeStd = {0.25};
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, {{"out_features", std::int64_t(16)}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(10)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    spec.optimizer.type = "sgd";
    spec.optimizer.lr = 10;
    spec.training.epochs = 4;
    spec.training.batchSize = 16;
    spec.training.device = "cpu";
    spec.training.seed = 3;
    return spec;
}

}  // namespace ts::test
