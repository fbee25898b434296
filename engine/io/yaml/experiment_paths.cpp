#include <filesystem>

#include "io/yaml/experiment_yaml.h"

namespace ts {

ExperimentSpec withAbsolutePaths(const ExperimentSpec& spec)
{
    namespace fs = std::filesystem;
    ExperimentSpec out = spec;
    if (out.dataset.path.empty() || fs::path(out.dataset.path).is_absolute()) return out;
    const fs::path base = spec.sourceFile.empty() ? fs::current_path() : fs::absolute(spec.sourceFile).parent_path();
    out.dataset.path = (base / out.dataset.path).lexically_normal().string();
    return out;
}

}  // namespace ts
