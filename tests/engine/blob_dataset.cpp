#include "blob_dataset.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ts::test {

BlobDataset::BlobDataset(std::int64_t n, std::uint64_t seed, bool randomLabels, std::int64_t poisonEvery)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0.0f, 0.3f);
    std::uniform_int_distribution<std::int64_t> anyClass(0, 2);
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t label = i % 3;
        for (std::int64_t d = 0; d < 16; ++d) data_.push_back((d % 3 == label ? 1.5f : 0.0f) + noise(rng));
        if (poisonEvery > 0 && i % poisonEvery == poisonEvery - 1) data_[static_cast<std::size_t>(i * 16 + 5)] = INFINITY;
        labels_.push_back(randomLabels ? anyClass(rng) : label);
    }
}

std::int64_t BlobDataset::get(std::int64_t index, float* out) const
{
    std::copy_n(data_.begin() + index * 16, 16, out);
    return labels_[static_cast<std::size_t>(index)];
}

DatasetSplits blobSplits(bool randomLabels, std::int64_t poisonEvery)
{
    DatasetSplits s;
    s.train = std::make_shared<BlobDataset>(240, 1, randomLabels, poisonEvery);
    s.validation = std::make_shared<BlobDataset>(60, 2);  // 60 = 3 x 16 + a ragged 12
    s.test = std::make_shared<BlobDataset>(60, 3);
    s.trainStatistics.mean = {0.5};
    s.trainStatistics.stddev = {0.8};
    s.trainStatistics.classCounts = {80, 80, 80};
    return s;
}

ExperimentSpec blobSpec(std::int64_t hidden)
{
    ExperimentSpec spec;
    spec.name = "blobs";
    Graph& g = spec.model;
    g.inputs = {{"image", Shape{1, 4, 4}}, {"label", Shape{}, DType::I64}};
    g.add("flatten", "Flatten", {"image"});
    g.add("fc1", "Linear", {"flatten"}, {{"out_features", hidden}});
    g.add("relu", "ReLU", {"fc1"});
    g.add("fc2", "Linear", {"relu"}, {{"out_features", std::int64_t(3)}});
    g.add("loss", "CrossEntropy", {"fc2", "label"});
    spec.optimizer.type = "sgd";
    spec.optimizer.lr = 0.1;
    spec.optimizer.momentum = 0.9;
    spec.training.epochs = 5;
    spec.training.batchSize = 16;  // 15 batches per epoch
    spec.training.seed = 42;
    spec.training.topK = {1, 2};
    spec.dataset.numWorkers = 2;
    return spec;
}

}  // namespace ts::test
