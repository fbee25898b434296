// trainstudio-cli: dispatches to one sub-command.
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "dist/communicator.h"
#include "version.h"

namespace {

void printHelp()
{
    std::printf(
        "Usage: trainstudio-cli [--help] [--version] <command> [options]\n"
        "\n"
        "Design, train and compare neural networks from the command line.\n"
        "\n"
        "Commands:\n"
        "  train       train an experiment: train EXPERIMENT.yaml [--device auto|cpu|cuda]\n"
        "              [--epochs N] [--threads N] [--set key=value ...] [--json] [--workspace DIR]\n"
        "              [--name NAME] [--tag TAG ...]; the run lands in the workspace\n"
        "              (default ~/.local/share/trainstudio/workspace) with its checkpoints;\n"
        "              train --resume RUN_OR_CHECKPOINT continues a stopped or crashed run;\n"
        "              train --fork RUN_OR_CHECKPOINT [EXPERIMENT.yaml] --set k=v starts a new\n"
        "              run from a checkpoint with changed settings\n"
        "  eval        evaluate a run's checkpoint over a split, store every prediction and\n"
        "              print the report (per-class precision/recall/F1, ROC-AUC, calibration\n"
        "              before and after temperature scaling):\n"
        "              eval RUN [--checkpoint best|last|EPOCH|FILE] [--split test|val|train]\n"
        "              (default: test, or val when the data has no test split)\n"
        "              [--output predictions.csv] [--device ..] [--workspace DIR] [--json]\n"
        "  predict     a run's top-k classes for images (PNG/JPEG), folders of them, IDX files\n"
        "              or CSV rows, preprocessed as its evaluation: predict RUN INPUT...\n"
        "              [--checkpoint best|last|EPOCH|FILE] [--top K] [--json] [--workspace DIR]\n"
        "  export      a run's checkpoint as ONNX: export RUN --format onnx [--checkpoint ..] (export --help)\n"
        "  lr-find     the learning-rate range test: lr-find EXPERIMENT.yaml [--steps N] [--seeds N]\n"
        "              [--min-lr X] [--max-lr Y] [--set k=v] [--device ..] [--workspace DIR] [--json]\n"
        "              (the workspace's label marks apply, as in training)\n"
        "  sweep       run the experiment's sweep: section (grid or random search, successive\n"
        "              halving, memory check first): sweep EXPERIMENT.yaml [--workspace DIR]\n"
        "              [--device ..] [--set k=v] [--json]; every trial is a run tagged sweep:<id>;\n"
        "              Ctrl+C stops it (exit 130), the same command again continues it\n"
        "  slurm       an sbatch script that trains on N nodes x G GPUs, one srun task per GPU\n"
        "              (data parallel; global batch = training.batch_size): slurm EXPERIMENT.yaml\n"
        "              --nodes N --gpus-per-node G [--output FILE] [--time T] [--partition P]\n"
        "              [--cpus-per-task C] [--set k=v] [--workspace DIR]; mpirun -np N\n"
        "              trainstudio-cli train ... trains on N local processes the same way\n"
        "  data check  the dataset's health: unreadable samples (file and byte offset), exact and\n"
        "              near duplicates within and across splits (leakage), class imbalance with\n"
        "              the fix, table checks: data check EXPERIMENT.yaml [--json] [--force]\n"
        "              [--threshold BITS (default 4)] [--show N] [--workspace DIR]; the report\n"
        "              stays in the workspace until the files change (--force checks again)\n"
        "  data labels  suspect labels, ranked: data labels EXPERIMENT.yaml (--run ID | --folds K\n"
        "               [--epochs N] | --check ID) [--top N] [--json] [--workspace DIR]\n"
        "  data mark   relabel or exclude a sample without touching the files: data mark\n"
        "              EXPERIMENT.yaml --split train|test --sample I (--relabel CLASS | --exclude\n"
        "              | --clear), or --list\n"
        "  validate    check an experiment and show its model and planned memory:\n"
        "              validate EXPERIMENT.yaml [--set key=value ...] [--no-data]\n"
        "  info        the backends compiled in, CPU threads, CUDA devices, ops\n"
        "  plan        a model's shapes, cost per node and planned memory\n"
        "              [--model mlp|cnn|resnet|lenet5] [--batch N] [--inference]\n"
        "  bench       bench EXPERIMENT.yaml [--device ..] [--steps N] [--set k=v] [--json]:\n"
        "              samples/s and ms per step split into data wait, forward, backward,\n"
        "              optimizer; or, without a file, a built-in model at 1 and all CPU\n"
        "              threads with the time of every layer:\n"
        "              bench [--model mlp|cnn|resnet|lenet5] [--batch N] [--steps N] [--gemm N (0: skip)]\n"
        "  bench-store  the run store: points/s written, ms to read a metric and to list runs,\n"
        "               step slowdown while logging: [--points N] [--runs N] [--workspace DIR]\n"
        "  runs        list, show, compare, metrics, export or delete stored runs (runs --help)\n"
        "  selftest    check the CUDA backend against the CPU, primitive by primitive, then with\n"
        "              a short training run: selftest [--device cuda|cuda:N|cpu]\n"
        "              [--precision f32|tf32|bf16|f16|all] [--json] [--no-training] [--seed N];\n"
        "              exit 77 when there is no CUDA device (selftest --help)\n"
        "\n"
        "Options:\n"
        "  -h, --help     show this help\n"
        "  -V, --version  show the version\n"
        "\n"
        "Workspace (studio.db and checkpoints/): --workspace DIR, else $TRAINSTUDIO_WORKSPACE,\n"
        "else $XDG_DATA_HOME/trainstudio/workspace or ~/.local/share/trainstudio/workspace;\n"
        "the studio uses the same rule.\n");
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printHelp();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "-V") {
        std::printf("trainstudio-cli %s\n", ts::engineVersion().c_str());
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        // Under mpirun or srun only training is data parallel; anything else would run once per
        // rank (two evaluations stored, two sweeps racing on one workspace).
        if (const ts::LaunchEnvironment launch = ts::launchEnvironment();
            launch.size > 1 && command != "train" && command != "info" && command != "slurm")
            throw std::invalid_argument("started as rank " + std::to_string(launch.rank) + " of " +
                                        std::to_string(launch.size) + " (" + launch.launcher +
                                        "), but only `train` runs on several processes: run `" + command +
                                        "` as one process (without mpirun or srun)");
        if (command == "train") return ts::cli::trainCommand(args);
        if (command == "eval") return ts::cli::evalCommand(args);
        if (command == "lr-find") return ts::cli::lrFindCommand(args);
        if (command == "export") return ts::cli::exportCommand(args);
        if (command == "predict") return ts::cli::predictCommand(args);
        if (command == "validate") return ts::cli::validateCommand(args);
        if (command == "info") return ts::cli::infoCommand(args);
        if (command == "plan") return ts::cli::planCommand(args);
        if (command == "bench") return ts::cli::benchCommand(args);
        if (command == "bench-store") return ts::cli::benchStoreCommand(args);
        if (command == "runs") return ts::cli::runsCommand(args);
        if (command == "selftest") return ts::cli::selftestCommand(args);
        if (command == "sweep") return ts::cli::sweepCommand(args);
        if (command == "slurm") return ts::cli::slurmCommand(args);
        if (command == "data" && !args.empty() && (args[0] == "labels" || args[0] == "mark")) {
            const std::vector<std::string> rest(args.begin() + 1, args.end());
            return args[0] == "labels" ? ts::cli::dataLabelsCommand(rest) : ts::cli::dataMarkCommand(rest);
        }
        if (command == "data") return ts::cli::dataCommand(args);  // data_command.cpp: check
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainstudio-cli %s: %s\n", command.c_str(), e.what());
        return 1;
    }
    std::fprintf(stderr, "trainstudio-cli: unknown command '%s' (see trainstudio-cli --help)\n", command.c_str());
    return 2;
}
