// A CIFAR-10 binary batch (3073-byte records). Every read sample is touched.
#include <vector>

#include "data/cifar_dataset.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string batch = ts::fuzz::writeInput("data_batch_1.bin", data, size);
    try {
        ts::CifarDataset d({batch}, ts::cifarClassNames(ts::fuzz::scratchDir()), "fuzz");
        std::vector<float> sample(static_cast<std::size_t>(d.sampleShape().numel()));
        for (std::int64_t i = 0; i < d.size(); ++i) (void)d.get(i, sample.data());
    } catch (const ts::DataError&) {
    }
    return 0;
}
