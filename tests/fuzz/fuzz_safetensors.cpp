// A safetensors file: the 8-byte length, the JSON header, the tensor data and its checksums.
#include "fuzz_file.h"
#include "io/checkpoint/safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = ts::fuzz::writeInput("model.safetensors", data, size);
    try {
        std::string sha;
        (void)ts::readSafetensors(path, &sha);
    } catch (const ts::CheckpointError&) {
    }
    return 0;
}
