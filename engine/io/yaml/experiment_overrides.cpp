// `--set key=value` overrides of an experiment (io/experiment_yaml.h). Each value is grafted
// onto the file's parsed tree, which is then read like the file alone, so overrides are
// validated exactly like the file's own values. The reader knows the grafted nodes: a
// problem with one is placed at the file's line of the value it replaced and names the
// argument. (Emitting the edited tree and reading that text placed it on a line of a file
// nobody sees.)
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "io/yaml/experiment_read.h"
#include "io/yaml/experiment_yaml.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

using namespace yamlio;

// The key and value nodes of `key` in a mapping, when it has that key.
std::optional<std::pair<YAML::Node, YAML::Node>> entryOf(const YAML::Node& map, const std::string& key)
{
    if (!map.IsMap()) return std::nullopt;
    for (auto it = map.begin(); it != map.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key) return std::pair(it->first, it->second);
    return std::nullopt;
}

// Every node of a subtree, keys included.
void collectNodes(const YAML::Node& node, std::vector<YAML::Node>& out)
{
    out.push_back(node);
    if (node.IsMap())
        for (auto it = node.begin(); it != node.end(); ++it) collectNodes(it->first, out), collectNodes(it->second, out);
    else if (node.IsSequence())
        for (auto it = node.begin(); it != node.end(); ++it) collectNodes(*it, out);
}

std::string joinedPath(const std::vector<std::string>& keys, std::size_t count)
{
    std::string path;
    for (std::size_t i = 0; i < count; ++i) path += (i ? "." : "") + keys[i];
    return path;
}

void applyOverride(Reader& reader, YAML::Node root, const std::string& item)
{
    const auto eq = item.find('=');
    std::vector<std::string> keys;
    if (eq != std::string::npos) {
        std::stringstream path(item.substr(0, eq));
        for (std::string k; std::getline(path, k, '.');) keys.push_back(k);
    }
    if (eq == std::string::npos || eq == 0 || item[eq - 1] == '.' ||
        std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); }))
        throw std::invalid_argument("--set expects key=value (e.g. training.epochs=3), got " + quoteText(item));
    YAML::Node value;
    try {
        value = YAML::Load(item.substr(eq + 1));
    } catch (const YAML::ParserException& e) {
        throw std::invalid_argument("--set " + clipText(item) + ": the value is not valid YAML (" + e.msg + ")");
    }

    // Where the file has the path: the value replaced, else the key of the deepest section there.
    Override graft{item, {}, {}};
    std::size_t present = 0;
    YAML::Node node = root;
    for (; present < keys.size(); ++present) {
        const auto entry = entryOf(node, keys[present]);
        if (!entry) break;
        const bool last = present + 1 == keys.size();
        graft.filePos = reader.at(last && !entry->second.IsNull() ? entry->second : entry->first);
        graft.filePos.fromSet = -1;  // a second --set of the same key is placed like the first
        node.reset(entry->second);   // reset rebinds the handle; `=` would overwrite the tree
    }
    if (present < keys.size() && node.IsDefined() && !node.IsNull() && !node.IsMap())
        throw std::invalid_argument("--set " + clipText(item) + ": " + clipText(joinedPath(keys, present)) + " is " + describe(node) +
                                    " in the experiment, not a mapping of keys");

    // Graft: missing keys become nested mappings (operator[] adds them), the value goes last.
    YAML::Node parent = root;
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        YAML::Node child = parent[keys[i]];
        parent.reset(child);
    }
    parent[keys.back()] = value;

    // The nodes this argument brought in: the value, or all it added from the first missing key on.
    if (present == keys.size()) {
        collectNodes(value, graft.nodes);
    } else {
        YAML::Node above = root;
        for (std::size_t i = 0; i < present; ++i) above.reset(entryOf(above, keys[i])->second);
        const auto added = entryOf(above, keys[present]);
        collectNodes(added->first, graft.nodes);
        collectNodes(added->second, graft.nodes);
    }
    reader.addOverride(std::move(graft));
}

}  // namespace

ExperimentSpec loadExperimentWithOverrides(const std::string& path, const std::vector<std::string>& overrides)
{
    return parseExperimentWithOverrides(readExperimentFile(path), path, overrides);
}

ExperimentSpec parseExperimentWithOverrides(const std::string& yamlText, const std::string& sourceName,
                                            const std::vector<std::string>& overrides)
{
    Reader reader(sourceName);
    YAML::Node root = parseExperimentYaml(yamlText, sourceName);
    // An empty file's root may be a handle without a node, which copies could not grow.
    if (root.IsNull()) root.reset(YAML::Node(YAML::NodeType::Map));
    // A file that is no mapping is reported as such rather than as a --set that cannot apply.
    if (root.IsMap())
        for (const std::string& item : overrides) applyOverride(reader, root, item);
    return readExperiment(reader, root);
}

}  // namespace ts
