// Experiment YAML as the CLI reads it (every section, sweep and layout included, and the model's
// graph check) and as the Model page reads it (the lenient draft). Dataset paths in the input
// point nowhere real; their checks are part of what is fuzzed.
#include "fuzz_file.h"
#include "io/yaml/experiment_text.h"
#include "io/yaml/experiment_yaml.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const ts::ExperimentSpec spec = ts::parseExperiment(text, "fuzz.yaml");
        // A file that reads must write back to one that reads the same way.
        (void)ts::parseExperiment(ts::experimentToYaml(spec), "fuzz-again.yaml");
    } catch (const ts::ExperimentError&) {
    }
    (void)ts::parseExperimentDraft(text, "fuzz.yaml");
    return 0;
}
