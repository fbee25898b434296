// A checkpoint's state file (step, epoch, optimizer, early stopping, running sums, the
// experiment text), past its checksums: the input is "key=value" lines that replace or add
// metadata entries of a real state file, which is then written with fresh checksums beside
// its weights and loaded as a resume would. (Raw bytes would stop at the checksum; the header
// parser has its own target, fuzz_safetensors.)
#include "fuzz_file.h"
#include "io/checkpoint/checkpoint.h"
#include "io/checkpoint/safetensors.h"

namespace {

struct Base {
    std::string weightsPath, statePath;
    ts::SafetensorsFile state;
};

const Base& base()
{
    static const Base b = [] {
        Base out;
        out.weightsPath = ts::fuzz::scratchDir() + "/epoch_001.safetensors";
        ts::TrainingState s;
        s.epoch = 2, s.step = 10, s.seed = 7;
        s.optimizerState = {{"step", ts::Tensor::zeros(ts::Shape{1}, ts::DType::I64)}};
        s.lastEpochMetrics = {{"val_acc", 0.5}};
        ts::MetricSums sums;
        sums.count = 3, sums.topKCorrect = {1, 2}, sums.confusion = {1, 0, 0, 2};
        s.epochSums = sums;
        s.batchInEpoch = 4;
        s.experimentYaml = "name: fuzz\n";
        const ts::SavedCheckpoint saved = ts::saveCheckpoint(out.weightsPath, {{"w", ts::Tensor::zeros(ts::Shape{2}, ts::DType::F32)}}, s);
        out.statePath = saved.statePath;
        out.state = ts::readSafetensors(saved.statePath);
        return out;
    }();
    return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const Base& b = base();
    std::map<std::string, std::string> metadata = b.state.metadata;
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const std::size_t eq = line.find('=');
        if (eq == std::string::npos) metadata.erase(line);
        else metadata[line.substr(0, eq)] = line.substr(eq + 1);
    }
    try {
        ts::writeSafetensors(b.statePath, b.state.tensors, metadata);
    } catch (const ts::CheckpointError&) {
        return 0;  // metadata that is not UTF-8: nothing to read back
    }
    try {
        (void)ts::loadCheckpoint(b.weightsPath);
    } catch (const ts::CheckpointError&) {
    }
    return 0;
}
