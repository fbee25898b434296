// The `sweep:` section of an experiment file, both ways (experiment_reader.cpp and
// experiment_writer.cpp call these), and the `--set` argument a trial's value becomes.
//
//   sweep:
//     method: grid            # grid | random
//     budget: 16              # trials; random needs it; a grid keeps this many of its points (seeded)
//     seed: 0
//     metric: val_acc         # ranks the trials; min or max by name (lowerIsBetter)
//     parameters:
//       optimizer.lr: {values: [1e-4, 3e-4, 1e-3]}           # or a plain list: [1e-4, 3e-4]
//       optimizer.weight_decay: {log_uniform: [1e-5, 1e-1], count: 4}  # a grid needs count
//       optimizer.type: {choices: [sgd, adamw]}
//       optimizer.momentum: {uniform: [0.8, 0.99], when: {optimizer.type: sgd}}
//     halving: {min_epochs: 1, eta: 3}   # successive halving; absent: every trial trains fully
//
// Every value a trial can take is read as a `--set key=value` of the experiment
// (parseExperimentWithOverrides), so a swept value is checked exactly as the file's own; a
// problem is reported at the value in the sweep section.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "types/experiment_spec.h"

namespace YAML {
class Node;
}

namespace ts {

// "optimizer.lr=0.001", "optimizer.type=sgd": the value as YAML that reads back as written.
std::string sweepOverride(const std::string& key, const std::string& value);
// A point of a range as a trial's value: 4 significant digits ("0.0003162", "1e-05"), or an
// integer; locale-free.
std::string sweepPoint(double value, bool integer);
// Whether two values as written are the same value: the same text, or equal numbers ("1e-3", "0.001").
bool sweepValuesEqual(const std::string& a, const std::string& b);

// The most trials a sweep runs. A grid is counted before it is built and refused past this
// (two `count: 100000` axes once grew to 23.5 GB); random search draws its trials one at a
// time from ranges of any count, and its budget is held to this too.
inline constexpr std::int64_t kMaxSweepTrials = 10000;
// Point i of a range's `count` evenly (log-)spaced points, ends included, as a trial's value.
std::string sweepRangePoint(const SweepParameter& p, std::int64_t i);
// The values a grid takes for `p`: its list's length, or its range's distinct points (a count
// above kMaxSweepTrials is taken as it is, not generated).
std::int64_t sweepAxisSize(const SweepParameter& p);
// The points of the grid over `sweep`'s parameters (before conditions drop any), counted
// without building it; nullopt past 64-bit arithmetic.
std::optional<std::int64_t> sweepGridSize(const SweepSpec& sweep);
// "the grid has 10000000000 points (optimizer.lr 100000 x ...), more than ...: use ..."; empty
// when the grid is within kMaxSweepTrials.
std::string sweepGridTooLarge(const SweepSpec& sweep);

}  // namespace ts

namespace ts::yamlio {

class Reader;
struct Field;
struct Out;

// Reads `field` (the sweep section of the experiment `root`); `spec` holds the sections read
// before it (dataset, training), which some checks compare with. Problems go to the reader.
SweepSpec readSweep(Reader& reader, const Field& field, const YAML::Node& root, const ExperimentSpec& spec);
// The section as the writer puts it: load(save(spec)) == spec.
Out sweepOut(const SweepSpec& sweep);

}  // namespace ts::yamlio
