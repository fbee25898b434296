// Experiment files as the studio edits them: read leniently (a model that does not check
// is still drawn, its broken nodes marked) and saved losslessly (what the edit did not touch
// keeps its bytes, comments included). The strict reader and writer are experiment_yaml.h.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "io/yaml/experiment_yaml.h"

namespace ts {

// An experiment as the Model page opens it: everything the reader could make of the file,
// even when its model does not check (an unknown op, a shape that does not fit, a missing
// input): the page shows such a model with the broken nodes marked instead of refusing it.
// A node with an unknown op or an attribute its op refuses is in spec.model with its
// attributes as written (those that are values at all), so it is drawn and saved unchanged.
struct ExperimentDraft {
    ExperimentSpec spec;
    std::vector<ExperimentIssue> issues;  // every problem found, with line:column (empty: the file is fine)
    std::map<std::string, ExperimentIssue> nodeIssues;  // node name -> its (first) problem (unknown op, bad attribute, shape)
    bool usable = false;  // false only when there is no model to draw: the YAML does not parse, or the model section is unreadable
};
// The shapes are checked (checkGraph at the training batch size) only when the reading found
// no problem, as loadExperiment does; issues then equal loadExperiment's, in file order.
ExperimentDraft parseExperimentDraft(const std::string& yamlText, const std::string& sourceName);
ExperimentDraft loadExperimentDraft(const std::string& path);  // a file that cannot be read: one issue without a position

// The text to save for `edited`, given the file's current text: parts of the file whose
// spec did not change keep their bytes (comments included). In the model section, a changed
// attribute value rewrites that value only, an added or removed attribute touches only its
// node's line(s), a node whose only change is its `checkpoint` flag likewise; any other model
// change (nodes added, removed, reordered, renamed, rewired, inputs/output/loss changed)
// rewrites the model section, keeping the comment lines directly above it. The layout section
// is rewritten line by line (unchanged lines unchanged). Every other section (name,
// description, dataset, optimizer, schedule, training, sweep) is edited key by key
// (section_text.h): a changed value rewrites that value only (its line's comment kept), a key
// added is one line more at the end of its section (or `, key: value` in a flow mapping), a
// key back to its default loses its line, and a value the edit did not change keeps its
// spelling (`0.2860`, `1e-3`). A section the file lacks is added where the writer puts it; one
// back to all defaults goes. A section whose text cannot be edited so (a literal block, an
// anchor) is rewritten as experimentToYaml writes it. parseExperimentDraft(result).spec ==
// edited (minus sourceFile), up to spellings: an attribute whose value normalises to the same
// (`kernel_size: 3` and `[3, 3]`) is not touched. When the original is empty or unusable,
// returns experimentToYaml(edited). edited.sourceFile names the file (a missing `name:` is its stem).
std::string updateExperimentText(const std::string& originalText, const ExperimentSpec& edited);

}  // namespace ts
