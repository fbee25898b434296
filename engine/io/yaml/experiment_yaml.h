// Experiment files: YAML <-> ExperimentSpec. The layout is documented by the shipped files in
// experiments/ (fashion_mnist_mlp.yaml is the short tour). Loading validates everything the
// file can get wrong, including the model (checkGraph at the training batch size), and
// reports it as `file:line:column: what is wrong`. Saving writes the same layout back, omitting
// values that equal their defaults, so load(save(spec)) == spec. Comments are not kept; the
// Model page's lenient reading and its saving that keeps a file's bytes are experiment_text.h.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "io/output_file.h"
#include "types/experiment_spec.h"

namespace ts {

// One problem in an experiment file. line and column are 1-based; 0 when it has no position
// (the file cannot be read or written, or a --set value has no place in the file).
struct ExperimentIssue {
    int line = 0, column = 0;
    std::string message;  // without the position
    bool operator==(const ExperimentIssue&) const = default;
};

// The problems with an experiment file: every independent one, in file order. what() puts
// each on a line of its own as `file:line:column: message` (`file: message` without a
// position), under a `file: N problems` line when there are several.
class ExperimentError : public std::runtime_error {
public:
    ExperimentError(std::string file, int line, int column, std::string message);
    ExperimentError(std::string file, std::vector<ExperimentIssue> issues);  // at least one
    const std::string& file() const { return file_; }
    const std::vector<ExperimentIssue>& issues() const { return issues_; }
    // The first problem's.
    int line() const { return issues_.front().line; }
    int column() const { return issues_.front().column; }
    const std::string& message() const { return issues_.front().message; }

private:
    std::string file_;
    std::vector<ExperimentIssue> issues_;
};

// Reads and validates an experiment; sourceFile is set to `path`. Throws ExperimentError
// with every problem the reading finds; the model's shapes are checked only when there is
// none (a shape error's cause is often one of them).
ExperimentSpec loadExperiment(const std::string& path);
// The same from text; `sourceName` names it in errors and becomes sourceFile.
ExperimentSpec parseExperiment(const std::string& yamlText, const std::string& sourceName);

// `loadExperiment` with overrides such as "training.batch_size=64" or "optimizer.lr=3e-4"
// (YAML values: lists and numbers as written), validated like the file itself
// (experiment_overrides.cpp). A problem with an overridden value is placed at the line of
// the value it replaces (or of the section it adds to) and ends `(from --set key=value)`.
// Throws ExperimentError, or std::invalid_argument for an override that is not key=value.
ExperimentSpec loadExperimentWithOverrides(const std::string& path, const std::vector<std::string>& overrides);
// The same for experiment text (a checkpoint's copy of its experiment).
ExperimentSpec parseExperimentWithOverrides(const std::string& yamlText, const std::string& sourceName,
                                            const std::vector<std::string>& overrides);

// The file text for `spec` (its model is written as given, not checked).
std::string experimentToYaml(const ExperimentSpec& spec);
// Writes `path` as a user-named output (io/output_file.h: workspace files and non-regular
// files refused, a symbolic link's target written, atomically). Over an existing file the
// text is updated losslessly (io/experiment_text.h: untouched parts keep their bytes,
// comments included). Throws OutputFileError; returns the plan, whose note to show.
OutputPlan saveExperiment(const ExperimentSpec& spec, const std::string& path);

// The experiment as flat parameters for the run store, walking experimentToYaml(spec):
// ("optimizer.lr", "0.001"), ("model.layers.3.Conv2d.out_channels", "64"); list items by
// index. Values equal to their defaults are left out, as in the file. (experiment_flatten.cpp)
std::vector<std::pair<std::string, std::string>> flattenExperiment(const ExperimentSpec& spec);

// The spec with a relative dataset.path resolved against its sourceFile's folder, so the
// copy kept with a run or a checkpoint still finds its data from anywhere.
ExperimentSpec withAbsolutePaths(const ExperimentSpec& spec);

}  // namespace ts
