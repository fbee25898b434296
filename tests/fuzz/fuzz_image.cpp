// Image files through our reader (libvips): the header-only size, then a decode to grey and to
// RGB, each resized as a dataset sample is, in every resize mode. The seeds of fuzz_png and fuzz_jpeg
// differ; the code is the same.
#include <vector>

#include "data/dataset.h"
#include "data/image_decode.h"
#include "fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = ts::fuzz::writeInput("image", data, size);
    try {
        (void)ts::imageFileSize(path);
    } catch (const ts::DataError&) {
    }
    for (int channels : {1, 3}) {
        try {
            const ts::DecodedImage image = ts::decodeImageFile(path, channels);
            std::vector<float> out(static_cast<std::size_t>(channels) * 8 * 6);
            for (ts::ResizeMode mode : {ts::ResizeMode::Crop, ts::ResizeMode::Pad, ts::ResizeMode::Stretch})
                ts::resizeToPlanar(image, 8, 6, mode, out.data());
        } catch (const ts::DataError&) {
        }
    }
    return 0;
}
