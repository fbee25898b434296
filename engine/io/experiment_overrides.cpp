// `--set key=value` overrides of an experiment (io/experiment_yaml.h): they edit the parsed
// YAML tree, so they are validated exactly like the file's own values.
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "io/experiment_yaml.h"

namespace ts {

ExperimentSpec loadExperimentWithOverrides(const std::string& path, const std::vector<std::string>& overrides)
{
    if (overrides.empty()) return loadExperiment(path);
    std::ifstream file(path, std::ios::binary);
    if (!file) return loadExperiment(path);  // reports the missing file as the loader does
    std::stringstream text;
    text << file.rdbuf();
    YAML::Node root;
    try {
        root = YAML::Load(text.str());
    } catch (const YAML::Exception&) {
        return loadExperiment(path);  // reports the file's own error with its position
    }
    ExperimentSpec spec = parseExperimentWithOverrides(text.str(), path, overrides);
    spec.sourceFile = path;
    return spec;
}

ExperimentSpec parseExperimentWithOverrides(const std::string& yamlText, const std::string& sourceName,
                                            const std::vector<std::string>& overrides)
{
    if (overrides.empty()) return parseExperiment(yamlText, sourceName);
    // Overrides edit the parsed YAML tree, so they are validated exactly like the file's own values.
    YAML::Node root = YAML::Load(yamlText);
    for (const std::string& item : overrides) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("--set expects key=value (e.g. training.epochs=3), got '" + item + "'");
        std::vector<std::string> keys;
        std::stringstream path(item.substr(0, eq));
        for (std::string k; std::getline(path, k, '.');) keys.push_back(k);
        // Walk down by reassigning a handle: yaml-cpp nodes are references into the tree.
        std::vector<YAML::Node> chain{root};
        for (std::size_t i = 0; i + 1 < keys.size(); ++i) chain.push_back(chain.back()[keys[i]]);
        chain.back()[keys.back()] = YAML::Load(item.substr(eq + 1));
    }
    YAML::Emitter out;
    out << root;
    return parseExperiment(out.c_str(), sourceName + " (with --set)");
}

}  // namespace ts
