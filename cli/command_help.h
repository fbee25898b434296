// The commands of trainstudio-cli and their help: the one table that the overall --help and
// every `trainstudio-cli COMMAND --help` print from (command_help.cpp), and that the tests walk
// (tests/cli/tst_cli_help.cpp), so a command added here is listed, answers --help and is tested.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ts::cli {

struct CommandHelp {
    std::string_view name;  // "train", or "data check" for a sub-command
    // The forms after "trainstudio-cli ", one a line; a line that starts with a space
    // continues the form above it. Lines of at most 57 characters, the text's of at most 64:
    // both helps then fit 80 columns (tests/cli/tst_cli_help.cpp checks).
    std::string_view usage;
    std::string_view text;  // what it does
    bool ownHelp = false;   // the command prints a fuller help of its own (export, runs, selftest)
};

// In the order the overall help lists them.
inline constexpr CommandHelp kCommands[] = {
    {"train",
     "train EXPERIMENT.yaml [--device auto|cpu|cuda]\n"
     "  [--epochs N] [--threads N] [--set key=value ...] [--json]\n"
     "  [--workspace DIR] [--name NAME] [--tag TAG ...]\n"
     "train --resume RUN_OR_CHECKPOINT [--epochs N]\n"
     "  [--device ..] [--threads N] [--allow-changed-data]\n"
     "train --fork RUN_OR_CHECKPOINT [EXPERIMENT.yaml]\n"
     "  [--set key=value ...] [--epochs N]",
     "train an experiment; the run lands in the workspace with its\n"
     "checkpoints. --resume continues a stopped or crashed run exactly;\n"
     "--fork starts a new run from a checkpoint with changed settings.\n"
     "--epochs N trains to epoch N (at least 1); --threads N computes\n"
     "with N CPU threads (0: automatic, at most 4096)."},
    {"eval",
     "eval RUN [--checkpoint best|last|EPOCH|FILE]\n"
     "  [--split test|val|train] [--output predictions.csv]\n"
     "  [--device ..] [--workspace DIR] [--json]",
     "evaluate a run's checkpoint over a split (default: test, or val\n"
     "when the data has no test split), store every prediction and\n"
     "print the report: per-class precision/recall/F1, ROC-AUC,\n"
     "calibration before and after temperature scaling."},
    {"predict",
     "predict RUN INPUT... [--text TEXT ...]\n"
     "  [--checkpoint best|last|EPOCH|FILE] [--top K]\n"
     "  [--device ..] [--json] [--workspace DIR]",
     "a run's top-k classes (--top 1..1000, default 5) for images\n"
     "(PNG/JPEG), folders of them, IDX files or CSV rows, preprocessed\n"
     "as its evaluation; for a text classifier, text files (split at\n"
     "its separator lines) or --text, encoded by its tokenizer."},
    {"generate",
     "generate RUN [--prompt TEXT] [--length N]\n"
     "  [--temperature T] [--top-k K] [--seed S]\n"
     "  [--checkpoint best|last|EPOCH|FILE] [--device ..]\n"
     "  [--workspace DIR]",
     "text from a language model's run (dataset format text): the\n"
     "prompt, then --length tokens (default 200) drawn one at a time,\n"
     "printed as they come; --temperature 0 always takes the most\n"
     "likely token."},
    {"export",
     "export RUN --format onnx\n"
     "  [--checkpoint best|last|EPOCH|FILE] [--output FILE]\n"
     "  [--probabilities] [--quantize int8] [--workspace DIR]\n"
     "  [--json]",
     "a run's checkpoint as ONNX (export --help says more).", true},
    {"lr-find",
     "lr-find EXPERIMENT.yaml [--steps N] [--seeds N]\n"
     "  [--min-lr X] [--max-lr Y] [--set k=v ...] [--device ..]\n"
     "  [--workspace DIR] [--json]",
     "the learning-rate range test over --steps N (at least 10); with\n"
     "--seeds N, N tests and their median suggested. The workspace's\n"
     "label marks apply, as in training."},
    {"sweep",
     "sweep EXPERIMENT.yaml [--workspace DIR] [--device ..]\n"
     "  [--set k=v ...] [--json]",
     "run the experiment's sweep: section (grid or random search,\n"
     "successive halving, memory check first); every trial is a run\n"
     "tagged sweep:<id>; Ctrl+C stops it (exit 130), the same command\n"
     "again continues it."},
    {"slurm",
     "slurm EXPERIMENT.yaml --nodes N --gpus-per-node G\n"
     "  [--output FILE] [--time T] [--partition P]\n"
     "  [--cpus-per-task C] [--set k=v ...] [--workspace DIR]\n"
     "  [--cli PATH]",
     "an sbatch script that trains on N nodes x G GPUs, one srun task\n"
     "per GPU (data parallel; global batch = training.batch_size).\n"
     "`mpirun -np N trainstudio-cli train ...` trains on N local\n"
     "processes the same way."},
    {"data check",
     "data check EXPERIMENT.yaml [--json] [--force]\n"
     "  [--threshold BITS] [--show N] [--set k=v ...]\n"
     "  [--workspace DIR]",
     "the dataset's health: unreadable samples (file and byte offset),\n"
     "exact and near duplicates within and across splits (leakage;\n"
     "near: perceptual hashes within --threshold 0..31 bits, default\n"
     "4), class imbalance with the fix, table checks. The report stays\n"
     "in the workspace until the files change (--force checks again);\n"
     "--show N findings of each kind (default 5)."},
    {"data labels",
     "data labels EXPERIMENT.yaml (--run ID | --folds K\n"
     "  [--epochs N] | --check ID) [--top N]\n"
     "  [--checkpoint best|last|EPOCH] [--device ..] [--json]\n"
     "  [--workspace DIR]",
     "suspect labels, ranked: in-sample under a run's checkpoint\n"
     "(--run), out of sample from a K-fold cross-validation (--folds K,\n"
     "at least 2), or a stored check (--check); the first --top N\n"
     "(default 20, 0: all)."},
    {"data mark",
     "data mark EXPERIMENT.yaml --split train|test --sample I\n"
     "  (--relabel CLASS | --exclude | --clear)\n"
     "  [--workspace DIR]\n"
     "data mark EXPERIMENT.yaml --list [--json]\n"
     "  [--workspace DIR]",
     "relabel or exclude a sample without touching the files;\n"
     "training applies the workspace's marks."},
    {"validate",
     "validate EXPERIMENT.yaml [--set key=value ...]\n"
     "  [--no-data]",
     "check an experiment and show its model and planned memory."},
    {"info",
     "info",
     "the backends compiled in, CPU threads, CUDA devices, ops."},
    {"ops",
     "ops [OP ...] [--json]",
     "every op, or the ops named: category, what it does, attributes\n"
     "(type, default, allowed values, help) and which backends run its\n"
     "forward and backward (learnt by tracing its first case; cuda is\n"
     "answered without a GPU). --json: one object per op a line."},
    {"plan",
     "plan [--model mlp|cnn|resnet|lenet5] [--batch N]\n"
     "  [--inference]",
     "a built-in model's shapes, cost per node and planned memory."},
    {"bench",
     "bench EXPERIMENT.yaml [--device ..] [--steps N]\n"
     "  [--set k=v ...] [--json] [--layers]\n"
     "bench [--model mlp|cnn|resnet|lenet5] [--batch N]\n"
     "  [--steps N] [--gemm N]",
     "samples/s and ms per step split into data wait, forward,\n"
     "backward, optimizer (--layers: and into every layer); or,\n"
     "without a file, a built-in model at 1\n"
     "and all CPU threads with the time of every layer, and an N x N\n"
     "GEMM (--gemm 0..16384, default 1024; 0: skip)."},
    {"bench-store",
     "bench-store [--points N] [--runs N] [--workspace DIR]",
     "the run store: points/s written, ms to read a metric and to list\n"
     "runs, step slowdown while logging (default: a temporary\n"
     "workspace)."},
    {"runs",
     "runs list|show|compare|metrics|export|delete ...\n"
     "  [--workspace DIR]",
     "list, show, compare, metrics, export or delete stored runs (runs\n"
     "--help says more).", true},
    {"selftest",
     "selftest [--device cuda|cuda:N|cpu]\n"
     "  [--precision f32|tf32|bf16|f16|all] [--json]\n"
     "  [--no-training] [--seed N] [--experiments DIR]",
     "check the CUDA backend against the CPU, primitive by primitive,\n"
     "then with a short training run; exit 77 when there is no CUDA\n"
     "device (selftest --help says more).", true},
};

// The entry named by the command line's first words ("data", "check" -> "data check");
// null when there is none.
const CommandHelp* findCommand(const std::vector<std::string>& args);

// Prints to stdout.
void printOverallHelp();
void printCommandHelp(const CommandHelp& command);
// Every entry whose name starts with `group` ("data"): for `data --help`.
void printGroupHelp(std::string_view group);

}  // namespace ts::cli
