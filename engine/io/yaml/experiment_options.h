// One description of the experiment's options: every scalar and list setting an experiment
// file holds outside the model graph, its name, description and the dataset's format, path and
// columns. The reader (experiment_reader.cpp) checks these keys with this table's ranges and
// choices, and the studio's option editor is generated from it, so a range changed here changes
// what a file may say and what the editor accepts alike. Help texts are the studio's
// (translatable, ui/hyperparameters/option_help.cpp), keyed by `key`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "types/experiment_spec.h"

namespace ts {

// Where an option is shown: the Hyperparameters page's sections, in this order.
enum class OptionGroup { Optimizer, Schedule, Regularisation, Batch, Precision, Checkpoints, DataLoading, Run };

enum class OptionKind { Number, Integer, Boolean, Choice, Text, NumberList, IntegerList };

// The numbers allowed (for a list: each element), between optional ends, either end open.
struct OptionRange {
    std::optional<double> min, max;
    bool minOpen = false, maxOpen = false;
    bool finite = false;  // infinities refused too
    bool contains(double v) const;
    // "> 0", ">= 1", "in [0, 1)"; empty for any number.
    std::string text() const;
    // Why `v` is refused ("must be > 0"), or "" when it is allowed.
    std::string problem(double v) const;
};

using OptionValue = std::variant<bool, std::int64_t, std::uint64_t, double, std::string, std::vector<std::int64_t>, std::vector<double>>;

struct ExperimentOption {
    std::string key;  // the YAML path as the file writes it: "optimizer.lr", "training.early_stopping.patience"
    OptionGroup group = OptionGroup::Optimizer;
    OptionKind kind = OptionKind::Number;
    OptionRange range;                    // Number, Integer, and the elements of lists
    std::vector<std::string> choices;     // Choice: the values accepted; Text: suggestions only
    std::vector<std::string> notOffered;  // accepted choices an editor does not offer (range_test: the finder's)
    // Choice: the noun of "type: unknown optimizer 'adamm' (did you mean ...); valid: ..."; empty:
    // "expected f32, tf32, bf16 or f16".
    std::string noun;
    std::string element = "value";  // lists: "every weight must be >= 0"
    bool increasing = false;        // lists: strictly increasing ("expected increasing epochs >= 1")
    bool unsignedInteger = false;   // Integer read as a 64-bit unsigned number (seeds)
    std::string (*rule)(const std::string&) = nullptr;  // Text: a further check, returning the problem
    bool (*applies)(const ExperimentSpec&) = nullptr;   // whether it has any effect; null: always
    OptionValue (*value)(const ExperimentSpec&) = nullptr;

    std::string name() const;  // the key's last part, as in messages: "lr"
    std::string section() const;  // the rest: "optimizer", "training.early_stopping"
    bool appliesTo(const ExperimentSpec& spec) const { return !applies || applies(spec); }
};

// Every option, grouped, in the order an editor shows them.
const std::vector<ExperimentOption>& experimentOptions();
// The option at `key`, or null.
const ExperimentOption* findExperimentOption(const std::string& key);

// The table's checks, as the reader makes them; "" when fine, else the reason without the
// key ("must be > 0", "expected f32, tf32, bf16 or f16", "every weight must be >= 0").
std::string optionProblem(const ExperimentOption& option, double value);
std::string optionProblem(const ExperimentOption& option, const std::string& value);  // Choice, Text
std::string optionProblem(const ExperimentOption& option, const std::vector<double>& values);  // lists
// The same for an option's value written as YAML ("0.001", "[3, 6]", "sgd"), the type
// included ("expected a number, got 'abc'"): what an editor can say before applying an edit.
std::string checkOptionText(const ExperimentOption& option, const std::string& yamlValue);

OptionValue optionValue(const ExperimentSpec& spec, const ExperimentOption& option);
// The value as YAML text: "0.001", "[3, 6]", "true", "sgd".
std::string optionValueText(const ExperimentSpec& spec, const ExperimentOption& option);
// What a person typed into an editor's field as YAML: a list's "3, 6" becomes "[3, 6]", a text
// is quoted where YAML would read it otherwise; numbers and choices stay as typed (trimmed).
std::string optionYamlText(const ExperimentOption& option, const std::string& typed);

// `spec` with the option at `key` set to `yamlValue`, read and validated exactly as a file's
// own value (the --set path of io/experiment_yaml.h, the model checked at the batch size).
// Keeps sourceFile, name, description and the model as they are. Throws ExperimentError
// whose issues carry no position and no "(from --set ...)": only what is wrong.
ExperimentSpec withOption(const ExperimentSpec& spec, const std::string& key, const std::string& yamlValue);

}  // namespace ts
