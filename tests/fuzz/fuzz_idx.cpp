// IDX images and labels (MNIST's format), plain or gzip (TS_FUZZ_GZIP: the same bytes under a
// .gz name; zlib reads a stream that is not gzip through unchanged, so both paths are fuzzed).
// Input: the images file, "\n--\n", the labels file. Every read sample is touched.
#include <vector>

#include "data/idx_dataset.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const ts::fuzz::TwoParts parts = ts::fuzz::splitInput(data, size);
#ifdef TS_FUZZ_GZIP
    const char* imagesName = "images-idx3-ubyte.gz";
#else
    const char* imagesName = "images-idx3-ubyte";
#endif
    const std::string images = ts::fuzz::writeInput(imagesName, parts.first.data(), parts.first.size());
    const std::string labels = ts::fuzz::writeInput("labels-idx1-ubyte", parts.second.data(), parts.second.size());
    try {
        ts::IdxDataset d(images, labels, ts::idxClassNames("fuzz"), "fuzz");
        // A header may announce 0 images of 65,536 x 65,536: no sample buffer for those.
        if (d.size() == 0) return 0;
        std::vector<float> sample(static_cast<std::size_t>(d.sampleShape().numel()));
        for (std::int64_t i = 0; i < d.size(); ++i) (void)d.get(i, sample.data());
    } catch (const ts::DataError&) {
    }
    return 0;
}
