// Ready-made models ("New model from a template" on the Model page, the CLI's plan and bench
// commands): each built for any input shape and class count. For Fashion-MNIST (1x28x28,
// 10 classes) the mlp, cnn and resnet templates are exactly the models of
// experiments/fashion_mnist_{mlp,cnn,resnet}.yaml, node names included.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace ts {

struct TemplateInput {
    std::vector<std::int64_t> shape;  // without the batch: [C, H, W] (an image) or [F] (features)
    int classes = 10;
};

// "mlp", "cnn", "resnet", "lenet5".
std::vector<std::string> templateNames();
// Why template `name` cannot be built for `input` ("lenet5 needs images of at least 12x12,
// got 8x8"), or empty when it can. mlp takes [F] or [C, H, W]; the others need [C, H, W]:
// cnn and resnet at least 4x4, lenet5 at least 12x12. Every template needs 2 classes or more.
std::string templateRejection(const std::string& name, const TemplateInput& input);
bool templateAccepts(const std::string& name, const TemplateInput& input);
// The graph, with inputs 'image' [C, H, W] (or 'features' [F]) and 'label' (i64). Throws
// std::invalid_argument naming the known templates, or saying why the input does not fit.
//   mlp:    (Flatten,) Linear 512, ReLU, Linear 256, ReLU, Linear classes (torch's init), CrossEntropy
//   cnn:    2 x [Conv 3x3 pad 1 (32, then 64), BatchNorm, ReLU, MaxPool 2], Flatten, Linear 128, ReLU,
//           Dropout 0.25, Linear classes ('classifier'), CrossEntropy
//   resnet: Conv stem 16, a residual block at 16, a stride-2 block at 32 with a 1x1 projection,
//           GlobalAvgPool, Linear classes
//   lenet5: the classic with ReLU: Conv 6@5x5 (pad 2 below 32x32, as LeNet's 32x32 input was
//           MNIST's 28x28 padded), AvgPool 2, Conv 16@5x5, AvgPool 2, Flatten, Linear 120, ReLU,
//           Linear 84, ReLU, Linear classes
Graph templateGraph(const std::string& name, const TemplateInput& input);
// The Fashion-MNIST shape: [1, 28, 28], 10 classes.
Graph templateGraph(const std::string& name);

// The mlp and cnn templates for Fashion-MNIST under the short node names older suites use
// (fc1, bn1, pool1, loss, ...): the same graphs renamed, not a second definition.
Graph fashionMnistMlp();
Graph fashionMnistCnn();

}  // namespace ts
