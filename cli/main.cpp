// trainstudio-cli: dispatches to one sub-command.
#include <cstdio>
#include <cstring>
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
        "  info        the backends compiled in, CPU threads, CUDA devices, ops\n"
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
    if (command == "info") return ts::cli::infoCommand(args);
    std::fprintf(stderr, "trainstudio-cli: unknown command '%s' (see trainstudio-cli --help)\n", command.c_str());
    return 2;
}
