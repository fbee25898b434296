// One function per sub-command; each returns the process exit code.
#pragma once
#include <string>
#include <vector>

namespace ts::cli {

int infoCommand(const std::vector<std::string>& args);
int planCommand(const std::vector<std::string>& args);
int benchCommand(const std::vector<std::string>& args);
int benchStoreCommand(const std::vector<std::string>& args);  // bench_store.cpp
int trainCommand(const std::vector<std::string>& args);
int evalCommand(const std::vector<std::string>& args);    // job_commands.cpp
int lrFindCommand(const std::vector<std::string>& args);  // job_commands.cpp
int predictCommand(const std::vector<std::string>& args);  // predict_command.cpp
int generateCommand(const std::vector<std::string>& args);  // generate_command.cpp
int validateCommand(const std::vector<std::string>& args);
int runsCommand(const std::vector<std::string>& args);
int selftestCommand(const std::vector<std::string>& args);  // selftest_command.cpp
int sweepCommand(const std::vector<std::string>& args);     // sweep_command.cpp
int dataCommand(const std::vector<std::string>& args);  // data_command.cpp: data check (and labels, mark)
int dataLabelsCommand(const std::vector<std::string>& args);  // data_labels_command.cpp: data labels
int dataMarkCommand(const std::vector<std::string>& args);    // data_labels_command.cpp: data mark
int slurmCommand(const std::vector<std::string>& args);       // slurm_command.cpp: an sbatch script
int exportCommand(const std::vector<std::string>& args);      // export_command.cpp: export RUN --format onnx
int opsCommand(const std::vector<std::string>& args);         // ops_command.cpp: every op and who runs it

}  // namespace ts::cli
