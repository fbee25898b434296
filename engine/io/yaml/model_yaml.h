// Internal to engine/io: the `model:` section. Two forms, one Graph:
//   layers: a chain, each layer fed by the previous one; a loss last takes it and 'label'.
//   nodes:  named nodes with explicit inputs (default: the previous node) for branched graphs.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "types/experiment_spec.h"
#include "io/yaml/yaml_read.h"
#include "io/yaml/yaml_write.h"

namespace ts::yamlio {

// The inputs a dataset implies (image [C, H, W] or features [F], plus an i64 'label'), or
// nullopt when the file must list them (csv without feature_columns, image_folder without image_shape).
std::optional<std::vector<GraphInput>> defaultInputs(const DatasetSpec& dataset);

// Name given to an unnamed node: the op in lower case without a "2d"-like suffix, and the
// count of such nodes so far: linear1, relu2, conv1, batchnorm1.
std::string generatedName(const std::string& op, int count);
std::string nameBase(const std::string& op);

// Where each node came from, to put checkGraph's errors on the right line.
struct ModelMarks {
    Pos model;
    std::map<std::string, Pos> nodes;
    Pos output, loss;
};

Graph readModel(Reader& reader, const Field& model, const DatasetSpec& dataset, ModelMarks& marks);
Out writeModel(const Graph& graph, const DatasetSpec& dataset);

}  // namespace ts::yamlio
