// Internal to engine/io: an experiment file's parts one by one, for the lenient reader of the
// Model page (experiment_draft.cpp) and the saver that keeps a file's bytes
// (experiment_text.cpp), beside the plain reader and writer that use them whole.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "graph/graph.h"
#include "io/yaml/model_yaml.h"
#include "io/yaml/yaml_read.h"
#include "io/yaml/yaml_write.h"
#include "types/experiment_spec.h"

namespace ts::yamlio {

// Reads every section of `root` into a spec, collecting each problem in the reader without
// throwing, and where each node came from. Does not check the model as a whole.
ExperimentSpec readExperimentSections(Reader& reader, const YAML::Node& root, ModelMarks& marks);
// Where a checkGraph error belongs: its node, else the model/output/loss key it is about.
Pos graphErrorPos(const GraphError& error, const Graph& model, const ModelMarks& marks);

// The file as experimentToYaml renders it: one field per top-level section, in file order.
Out experimentOut(const ExperimentSpec& spec);

// The `layout:` section (layout_yaml.cpp). Names the model does not have are kept.
ModelLayout readLayout(Reader& reader, const Field& field);
// Positions one per line in the model's order (graph inputs, nodes, then other names), blocks one per line.
Out layoutOut(const ModelLayout& layout, const Graph& model);

}  // namespace ts::yamlio
