// Where the experiments shipped with TrainStudio (experiments/*.yaml) are: the one rule the
// studio's Train page and `trainstudio-cli selftest` share, so a binary built in any folder
// finds them, not only one built inside the source tree.
#pragma once
#include <filesystem>

namespace ts {

// The running executable's folder (/proc/self/exe); empty when it cannot be read.
std::filesystem::path executableDirectory();

// The first of these that holds fashion_mnist_mlp.yaml, canonical; empty when none does:
//   1. <exe>/../share/trainstudio/experiments: an installed binary's own copy, first, so an
//      installed studio never reads a source tree that happens to be around;
//   2. the source tree's experiments/, compiled in by CMake (TS_SOURCE_EXPERIMENTS_DIR): a
//      build folder anywhere, the tests included;
//   3. experiments/ in the executable's folder or up to three above it: a build folder inside
//      a source tree that has moved since it was built (copied to another machine).
std::filesystem::path shippedExperimentsDirectory(const std::filesystem::path& executableDir = executableDirectory());

}  // namespace ts
