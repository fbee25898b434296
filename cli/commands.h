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
int validateCommand(const std::vector<std::string>& args);
int runsCommand(const std::vector<std::string>& args);
int selftestCommand(const std::vector<std::string>& args);  // selftest_command.cpp
int sweepCommand(const std::vector<std::string>& args);     // sweep_command.cpp

}  // namespace ts::cli
