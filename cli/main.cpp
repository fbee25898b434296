// trainstudio-cli: dispatches to one sub-command.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "command_help.h"
#include "commands.h"
#include "terminal_text.h"
#include "dist/communicator.h"
#include "version.h"

namespace {

// The command's own function; nullopt for an unknown command.
std::optional<int> dispatch(const std::string& command, const std::vector<std::string>& args)
{
    using namespace ts::cli;
    if (command == "train") return trainCommand(args);
    if (command == "eval") return evalCommand(args);
    if (command == "lr-find") return lrFindCommand(args);
    if (command == "export") return exportCommand(args);
    if (command == "predict") return predictCommand(args);
    if (command == "generate") return generateCommand(args);
    if (command == "validate") return validateCommand(args);
    if (command == "info") return infoCommand(args);
    if (command == "ops") return opsCommand(args);
    if (command == "plan") return planCommand(args);
    if (command == "bench") return benchCommand(args);
    if (command == "bench-store") return benchStoreCommand(args);
    if (command == "runs") return runsCommand(args);
    if (command == "selftest") return selftestCommand(args);
    if (command == "sweep") return sweepCommand(args);
    if (command == "slurm") return slurmCommand(args);
    if (command == "data" && !args.empty() && (args[0] == "labels" || args[0] == "mark")) {
        const std::vector<std::string> rest(args.begin() + 1, args.end());
        return args[0] == "labels" ? dataLabelsCommand(rest) : dataMarkCommand(rest);
    }
    if (command == "data") return dataCommand(args);  // data_command.cpp: check
    return std::nullopt;
}

// --help or -h anywhere after a known command (`train x.yaml --help`) prints its help from
// the one table (command_help.h) and exits 0, before the command parses anything, so that no
// command can refuse it; nullopt when not asked, or for an unknown command.
std::optional<int> answerHelp(const std::string& command, const std::vector<std::string>& args)
{
    if (std::find_if(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; }) == args.end())
        return std::nullopt;
    std::vector<std::string> words{command};
    words.insert(words.end(), args.begin(), args.end());
    if (const ts::cli::CommandHelp* c = ts::cli::findCommand(words)) {
        if (c->ownHelp) return dispatch(command, {"--help"});
        ts::cli::printCommandHelp(*c);
        return 0;
    }
    const std::string group = command + " ";  // `data --help`: its sub-commands
    for (const ts::cli::CommandHelp& c : ts::cli::kCommands)
        if (c.name.starts_with(group)) {
            ts::cli::printGroupHelp(command);
            return 0;
        }
    return std::nullopt;
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || (args[0] == "help" && args.size() == 1)) {
        ts::cli::printOverallHelp();
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "help") {  // `help data mark` is `data mark --help`
        args.erase(args.begin());
        args.push_back("--help");
    }
    if (args[0] == "--version" || args[0] == "-V") {
        std::printf("trainstudio-cli %s\n", ts::engineVersion().c_str());
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    try {
        if (const auto code = answerHelp(command, args)) return *code;
        // Under mpirun or srun only training is data parallel; anything else would run once per
        // rank (two evaluations stored, two sweeps racing on one workspace).
        if (const ts::LaunchEnvironment launch = ts::launchEnvironment();
            launch.size > 1 && command != "train" && command != "info" && command != "slurm")
            throw std::invalid_argument("started as rank " + std::to_string(launch.rank) + " of " +
                                        std::to_string(launch.size) + " (" + launch.launcher +
                                        "), but only `train` runs on several processes: run `" + command +
                                        "` as one process (without mpirun or srun)");
        if (const auto code = dispatch(command, args)) return *code;
    } catch (const std::bad_alloc&) {  // "std::bad_alloc" would tell a user nothing
        std::fprintf(stderr, "trainstudio-cli %s: out of memory: the system refused an allocation; close other programs, "
                             "or use a smaller model, batch or dataset\n", ts::cli::terminalText(command).c_str());
        return 1;
    } catch (const std::exception& e) {
        // The message keeps its lines; control characters in it are escaped and each line is bounded.
        std::fprintf(stderr, "trainstudio-cli %s: %s\n", ts::cli::terminalCell(command, 80).c_str(), ts::cli::terminalMessage(e.what()).c_str());
        return 1;
    }
    std::fprintf(stderr, "trainstudio-cli: unknown command '%s' (see trainstudio-cli --help)\n", command.c_str());
    return 2;
}
