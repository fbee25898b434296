// Ready-made graphs for the shipped Fashion-MNIST models (1x28x28 images, 10 classes),
// used by the CLI's plan and bench commands and by tests until experiment files load them.
#pragma once
#include <string>
#include <vector>

#include "graph/graph.h"

namespace ts {

// Flatten, Linear 784->512, ReLU, Linear 512->256, ReLU, Linear 256->10, CrossEntropy.
Graph fashionMnistMlp();
// Conv(1->32,3,pad 1)-BN-ReLU-MaxPool2 -> Conv(32->64,3,pad 1)-BN-ReLU-MaxPool2 -> Flatten ->
// Linear(3136->128)-ReLU-Dropout(0.25) -> Linear(128->10), CrossEntropy.
Graph fashionMnistCnn();
// "mlp" or "cnn"; throws std::invalid_argument listing the names otherwise.
Graph templateGraph(const std::string& name);
std::vector<std::string> templateNames();

}  // namespace ts
