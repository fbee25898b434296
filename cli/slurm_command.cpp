// `trainstudio-cli slurm EXPERIMENT.yaml --nodes N --gpus-per-node G`: an sbatch script that
// trains the experiment on N x G GPUs, one process (Slurm task) per GPU started by srun, which
// the ranks then find in their environment (dist/communicator.h) and join over NCCL.
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "format.h"
#include "output_file.h"
#include "io/yaml/experiment_yaml.h"

namespace ts::cli {

namespace {

// 'text' for a POSIX shell, with every ' written as '\''.
std::string shellQuoted(const std::string& text)
{
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A job name Slurm shows in squeue: letters, digits, '-', '_' and '.'.
std::string jobName(const std::string& name)
{
    std::string out;
    for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
    return out.empty() ? "trainstudio" : out;
}

}  // namespace

int slurmCommand(const std::vector<std::string>& args)
{
    const Options o = parseOptions(args, {"--nodes", "--gpus-per-node", "--output", "--time", "--partition",
                                          "--cpus-per-task", "--workspace", "--set", "--cli"},
                                   {});
    if (o.positional.size() != 1)
        throw std::invalid_argument("slurm expects one experiment file: slurm EXPERIMENT.yaml --nodes N --gpus-per-node G "
                                    "[--output FILE] [--time HH:MM:SS] [--partition NAME] [--cpus-per-task C]");
    const std::string experiment = std::filesystem::absolute(o.positional[0]).lexically_normal().string();
    const ExperimentSpec spec = loadExperimentWithOverrides(experiment, o.all("--set"));  // refuses a broken file now, not in the queue
    // Bounds far above any cluster keep nodes x GPUs from overflowing.
    const long long nodes = o.integer("--nodes", 1, 1, 1'000'000), gpus = o.integer("--gpus-per-node", 1, 1, 1024);
    const long long ranks = nodes * gpus;
    if (spec.training.batchSize % ranks != 0)
        throw std::invalid_argument(experiment + ": training.batch_size " + std::to_string(spec.training.batchSize) +
                                    " is the global batch and cannot be split over " + std::to_string(ranks) + " GPUs (" +
                                    std::to_string(nodes) + " x " + std::to_string(gpus) + "): choose a multiple of " +
                                    std::to_string(ranks) + " (--set training.batch_size=" +
                                    std::to_string((spec.training.batchSize / ranks + 1) * ranks) + ")");
    // Loader workers plus the trainer's own thread, per task, unless told.
    const long long cpus = o.integer("--cpus-per-task", spec.dataset.numWorkers + 2, 1, kMaxThreads);
    const std::string cli = o.get("--cli", std::filesystem::read_symlink("/proc/self/exe").string());
    const std::string name = jobName(spec.name);

    std::string s;
    s += "#!/bin/bash\n";
    s += "# Written by trainstudio-cli slurm: " + spec.name + " on " + std::to_string(nodes) + " node(s) x " +
         std::to_string(gpus) + " GPU(s) = " + std::to_string(ranks) + " ranks, one per GPU; global batch " +
         std::to_string(spec.training.batchSize) + ", " + std::to_string(spec.training.batchSize / ranks) +
         " per rank. Submit it with: sbatch FILE\n";
    s += "#SBATCH --job-name=" + name + "\n";
    s += "#SBATCH --nodes=" + std::to_string(nodes) + "\n";
    s += "#SBATCH --ntasks-per-node=" + std::to_string(gpus) + "\n";
    s += "#SBATCH --gpus-per-node=" + std::to_string(gpus) + "\n";
    s += "#SBATCH --cpus-per-task=" + std::to_string(cpus) + "\n";
    if (o.has("--time")) s += "#SBATCH --time=" + o.get("--time", "") + "\n";
    if (o.has("--partition")) s += "#SBATCH --partition=" + o.get("--partition", "") + "\n";
    s += "#SBATCH --output=" + name + "-%j.out\n";
    s += "set -euo pipefail\n";
    s += "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-1}\"\n";
    s += "# Each task sees its own GPU (as cuda:0); the ranks join over NCCL, bootstrapped by MPI through\n"
         "# Slurm's PMIx. Rank 0 records the run in the workspace, which every node must see.\n";
    s += "srun --mpi=pmix --gpus-per-task=1 --cpus-per-task=\"$SLURM_CPUS_PER_TASK\" \\\n";
    s += "    " + shellQuoted(cli) + " train " + shellQuoted(experiment) + " --device cuda --workspace " +
         shellQuoted(o.workspace());
    for (const std::string& set : o.all("--set")) s += " --set " + shellQuoted(set);
    s += "\n";

    if (!o.has("--output")) {
        std::fputs(s.c_str(), stdout);
        return 0;
    }
    const std::string path = o.get("--output", "");
    const OutputPlan plan = writeOutputFile(path, s);
    sayOutputNote(plan);
    std::filesystem::permissions(plan.target, std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    std::fprintf(stderr, "wrote %s (%lld ranks); submit it with: sbatch %s\n", path.c_str(), ranks, path.c_str());
    return 0;
}

}  // namespace ts::cli
