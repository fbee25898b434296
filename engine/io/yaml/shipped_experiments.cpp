#include "io/yaml/shipped_experiments.h"

#include <system_error>
#include <vector>

namespace ts {

namespace fs = std::filesystem;

fs::path executableDirectory()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

fs::path shippedExperimentsDirectory(const fs::path& executableDir)
{
    std::vector<fs::path> candidates;
    if (!executableDir.empty()) candidates.push_back(executableDir / ".." / "share" / "trainstudio" / "experiments");
#ifdef TS_SOURCE_EXPERIMENTS_DIR
    candidates.emplace_back(TS_SOURCE_EXPERIMENTS_DIR);
#endif
    fs::path dir = executableDir;
    for (int up = 0; up <= 3 && !dir.empty(); ++up, dir = dir.parent_path()) {
        candidates.push_back(dir / "experiments");
        if (dir == dir.root_path()) break;
    }
    for (const fs::path& candidate : candidates) {
        std::error_code ec;
        if (!fs::is_regular_file(candidate / "fashion_mnist_mlp.yaml", ec)) continue;
        const fs::path clean = fs::canonical(candidate, ec);
        return ec ? candidate.lexically_normal() : clean;
    }
    return {};
}

}  // namespace ts
