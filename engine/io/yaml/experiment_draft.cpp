// The lenient reading of experiment_text.h: the plain reader's sections without its throw, so
// the Model page gets the model as written with each problem pinned to the node it is in.
#include <algorithm>

#include "io/yaml/experiment_read.h"
#include "io/yaml/experiment_sections.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/yaml_spans.h"

namespace ts {

namespace {

using namespace yamlio;

// The model's list of layers or nodes, when the model section has one.
YAML::Node modelList(const YAML::Node& root)
{
    if (!root.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node model = valueOf(root, "model");
    if (!model.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    for (const char* key : {"layers", "nodes"})
        if (const YAML::Node list = valueOf(model, key); list.IsSequence()) return list;
    return YAML::Node(YAML::NodeType::Undefined);
}

// Byte offsets of line:column positions (both 1-based).
class Offsets {
public:
    explicit Offsets(const std::string& text)
    {
        starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') starts_.push_back(i + 1);
    }
    std::size_t of(int line, int column) const
    {
        if (line < 1 || static_cast<std::size_t>(line) > starts_.size()) return std::string::npos;
        return starts_[line - 1] + static_cast<std::size_t>(std::max(column, 1) - 1);
    }

private:
    std::vector<std::size_t> starts_;
};

// Gives each node the first problem written inside its item of the model's list.
void pinToNodes(ExperimentDraft& d, const std::string& text, const YAML::Node& list, const ModelMarks& marks)
{
    const SourceText src(text);
    std::vector<Span> items;  // each item's text: its own span, else up to the next item
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::size_t begin = static_cast<std::size_t>(std::max(list[i].Mark().pos, 0));
        const auto own = src.span(list[i]);
        const std::size_t next = i + 1 < list.size() ? static_cast<std::size_t>(std::max(list[i + 1].Mark().pos, 0)) : src.nextLine(begin);
        items.push_back(Span{begin, own ? std::max(own->end, begin + 1) : next});
    }
    auto itemAt = [&](std::size_t offset) -> int {
        for (std::size_t i = 0; i < items.size(); ++i)
            if (offset >= items[i].begin && offset < items[i].end) return static_cast<int>(i);
        return -1;
    };
    const Offsets offsets(text);
    std::vector<std::string> owner(items.size());  // the node each item became
    for (const Node& n : d.spec.model.nodes)
        if (auto it = marks.nodes.find(n.name); it != marks.nodes.end())
            if (const int i = itemAt(offsets.of(it->second.line, it->second.column)); i >= 0 && owner[i].empty()) owner[i] = n.name;
    for (const ExperimentIssue& issue : d.issues)
        if (const int i = issue.line > 0 ? itemAt(offsets.of(issue.line, issue.column)) : -1; i >= 0 && !owner[i].empty())
            d.nodeIssues.emplace(owner[i], issue);
}

}  // namespace

ExperimentDraft parseExperimentDraft(const std::string& yamlText, const std::string& sourceName)
{
    ExperimentDraft d;
    d.spec.sourceFile = sourceName;
    YAML::Node root;
    try {
        root = parseExperimentYaml(yamlText, sourceName);
    } catch (const ExperimentError& e) {
        d.issues = e.issues();
        return d;
    }
    Reader reader(sourceName);
    ModelMarks marks;
    d.spec = readExperimentSections(reader, root, marks);
    try {
        reader.finish();
    } catch (const ExperimentError& e) {
        d.issues = e.issues();
    }
    const YAML::Node list = modelList(root);
    d.usable = list.IsDefined();
    if (d.issues.empty()) {  // as loadExperiment: the shapes once everything else is right
        try {
            checkGraph(d.spec.model, d.spec.training.batchSize);
        } catch (const GraphError& e) {
            if (!onlyTheBatchTooLarge(e, d.spec.model)) {  // as loadExperiment: that one is the memory's question
                const Pos at = graphErrorPos(e, d.spec.model, marks);
                d.issues.push_back(ExperimentIssue{at.line, at.column, e.what()});
                const auto& nodes = d.spec.model.nodes;
                if (std::any_of(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == e.node(); }))
                    d.nodeIssues.emplace(e.node(), d.issues.back());
            }
        }
    }
    if (d.usable) pinToNodes(d, yamlText, list, marks);
    return d;
}

ExperimentDraft loadExperimentDraft(const std::string& path)
{
    try {
        return parseExperimentDraft(yamlio::readExperimentFile(path), path);
    } catch (const ExperimentError& e) {
        ExperimentDraft d;
        d.spec.sourceFile = path;
        d.issues = e.issues();
        return d;
    }
}

}  // namespace ts
