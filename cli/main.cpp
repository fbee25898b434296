// trainstudio-cli: dispatches to one sub-command.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "commands.h"
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
        "              [--epochs N] [--set key=value ...] [--json]\n"
        "  validate    check an experiment and show its model and planned memory:\n"
        "              validate EXPERIMENT.yaml [--set key=value ...] [--no-data]\n"
        "  info        the backends compiled in, CPU threads, CUDA devices, ops\n"
        "  plan        a model's shapes, cost per node and planned memory\n"
        "              [--model mlp|cnn] [--batch N] [--inference]\n"
        "  bench       bench EXPERIMENT.yaml [--device ..] [--steps N] [--set k=v] [--json]:\n"
        "              samples/s and ms per step split into data wait, forward, backward,\n"
        "              optimizer; or, without a file, a built-in model at 1 and all CPU\n"
        "              threads with the time of every layer:\n"
        "              bench [--model mlp|cnn] [--batch N] [--steps N] [--gemm N (0: skip)]\n"
        "\n"
        "Options:\n"
        "  -h, --help     show this help\n"
        "  -V, --version  show the version\n");
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
        if (command == "train") return ts::cli::trainCommand(args);
        if (command == "validate") return ts::cli::validateCommand(args);
        if (command == "info") return ts::cli::infoCommand(args);
        if (command == "plan") return ts::cli::planCommand(args);
        if (command == "bench") return ts::cli::benchCommand(args);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainstudio-cli %s: %s\n", command.c_str(), e.what());
        return 1;
    }
    std::fprintf(stderr, "trainstudio-cli: unknown command '%s' (see trainstudio-cli --help)\n", command.c_str());
    return 2;
}
