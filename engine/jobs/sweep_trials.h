// A sweep's trials, its rungs and its id: pure functions of the experiment, so a sweep that is
// run again (after Ctrl+C or a kill) finds the same trials and, by their tags, their runs.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "types/experiment_spec.h"

namespace ts {

struct SweepTrial {
    int number = 0;  // 1-based, in the order generated
    // The parameters that apply to this trial (conditions hold), in the sweep's order, with
    // their values as `--set` takes them.
    std::vector<std::pair<std::string, std::string>> values;

    std::vector<std::string> overrides() const;  // {"optimizer.lr=0.001", ...}
    std::string text() const;                    // "optimizer.lr=0.001 optimizer.type=sgd"
    bool operator==(const SweepTrial&) const = default;
};

// grid: the cartesian product in file order (the last parameter varies fastest), parameters
// whose conditions fail dropped and the configurations that then coincide kept once; with a
// smaller budget, that many of its points drawn by the seed, in grid order. random: `budget`
// distinct configurations drawn by the seed (fewer when the space holds fewer).
std::vector<SweepTrial> sweepTrials(const SweepSpec& sweep);

// The epochs each rung trains its trials to: minEpochs * eta^r below `epochs`, then `epochs`;
// just {epochs} without halving.
std::vector<std::int64_t> sweepRungs(const SweepSpec& sweep, std::int64_t epochs);

// "<experiment name>-<first 8 hex digits of the SHA-256 of the experiment as saved>": editing
// the experiment or its sweep starts a new sweep, reformatting the file does not.
std::string sweepId(const ExperimentSpec& spec);

// The tags a trial's runs carry: {"sweep:<id>", "trial:<number>"}.
std::vector<std::string> sweepTrialTags(const std::string& sweepId, int trial);

}  // namespace ts
