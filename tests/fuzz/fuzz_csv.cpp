// A CSV table with a "label" column (features: every numeric column), then the same text with
// the label column and a group column named ("group"). Every read row is touched.
#include <vector>

#include "data/csv_dataset.h"
#include "fuzz_file.h"

namespace {

void readAll(const std::string& path, const std::string& group)
{
    try {
        ts::CsvDataset d(path, "label", {}, group);
        std::vector<float> row(static_cast<std::size_t>(d.sampleShape().numel()));
        for (std::int64_t i = 0; i < d.size(); ++i) (void)d.get(i, row.data());
    } catch (const ts::DataError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string path = ts::fuzz::writeInput("table.csv", data, size);
    readAll(path, "");
    readAll(path, "group");
    return 0;
}
