// Flattens an experiment into key/value parameters for the run store by walking the YAML
// the experiment saves as: one definition of what an experiment says (its file), so a new
// field shows up in run comparisons without touching this code.
#include <yaml-cpp/yaml.h>

#include "io/yaml/experiment_yaml.h"

namespace ts {

namespace {

void walk(const YAML::Node& node, const std::string& prefix, std::vector<std::pair<std::string, std::string>>& out)
{
    auto join = [&](const std::string& key) { return prefix.empty() ? key : prefix + "." + key; };
    switch (node.Type()) {
    case YAML::NodeType::Map:
        for (const auto& kv : node) walk(kv.second, join(kv.first.as<std::string>()), out);
        break;
    case YAML::NodeType::Sequence:
        for (std::size_t i = 0; i < node.size(); ++i) walk(node[i], join(std::to_string(i)), out);
        break;
    case YAML::NodeType::Scalar:
        out.emplace_back(prefix, node.Scalar());
        break;
    default:  // null: a key with no value (a layer without attributes is a scalar, not this)
        out.emplace_back(prefix, "");
        break;
    }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> flattenExperiment(const ExperimentSpec& spec)
{
    std::vector<std::pair<std::string, std::string>> out;
    // The drawing is not a setting: node positions must not become run parameters.
    ExperimentSpec settings = spec;
    settings.layout = {};
    walk(YAML::Load(experimentToYaml(settings)), "", out);
    return out;
}

}  // namespace ts
