// What each experiment option is called and what it does, for the option editor's labels and
// tooltips: the studio's words (translated), keyed by the option table's keys
// (io/experiment_options.h). The advice is the seeds' (shared/seeds): "start at 1e-3", "prefer
// AdamW for weight decay; 0.01-0.1", "clip_grad_norm 1.0 is a common start", ...
#pragma once

#include <QString>

#include <string>
#include <vector>

#include "io/yaml/experiment_options.h"

namespace ts::ui {

// A short human name for the option's label ("Learning rate"); the key itself when unknown.
QString optionLabel(const std::string& key);
// What the option does and how to set it; empty for a key without help.
QString optionHelp(const std::string& key);
// The Hyperparameters page's section titles.
QString optionGroupTitle(ts::OptionGroup group);
// The keys that have a label and help, in the table's order of the help (tests check each is an option).
std::vector<std::string> optionHelpKeys();

}  // namespace ts::ui
