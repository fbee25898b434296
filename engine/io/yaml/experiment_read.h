// Internal to engine/io: the steps of reading an experiment, shared by the plain reader
// (experiment_reader.cpp) and the one that first grafts --set overrides onto the tree
// (experiment_overrides.cpp), so both report problems at the file's own lines.
#pragma once
#include <string>

#include <yaml-cpp/yaml.h>

#include "io/yaml/yaml_read.h"
#include "types/experiment_spec.h"

namespace ts::yamlio {

// The file's text; ExperimentError without a position when it cannot be opened or read.
std::string readExperimentFile(const std::string& path);
// The YAML tree; a syntax error is an ExperimentError at yaml-cpp's position.
YAML::Node parseExperimentYaml(const std::string& text, const std::string& sourceName);
// Reads and validates the tree, throwing every problem found (Reader::finish); only then
// checks the model as a whole with checkGraph. sourceFile is the reader's source.
ExperimentSpec readExperiment(Reader& reader, const YAML::Node& root);

}  // namespace ts::yamlio
