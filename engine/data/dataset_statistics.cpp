#include "data/dataset_statistics.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace ts {

DatasetStatistics computeStatistics(const Dataset& dataset)
{
    const Shape shape = dataset.sampleShape();
    const std::int64_t channels = shape[0];
    const std::int64_t perChannel = shape.numel() / std::max<std::int64_t>(channels, 1);
    const std::int64_t n = dataset.size();

    DatasetStatistics stats;
    stats.classCounts.assign(static_cast<std::size_t>(dataset.numClasses()), 0);
    for (std::int64_t label : dataset.labels())
        if (label >= 0 && label < dataset.numClasses())
            ++stats.classCounts[static_cast<std::size_t>(label)];
    stats.mean.assign(static_cast<std::size_t>(channels), 0.0);
    stats.stddev.assign(static_cast<std::size_t>(channels), 0.0);
    if (n == 0)
        return stats;

    // Sums of (x - shift) and its square, shifted by the first sample's channel values so
    // that features far from zero (CSV columns) do not cancel catastrophically.
    std::vector<float> first(static_cast<std::size_t>(shape.numel()));
    dataset.get(0, first.data());
    std::vector<double> shift(static_cast<std::size_t>(channels));
    for (std::int64_t c = 0; c < channels; ++c)
        shift[static_cast<std::size_t>(c)] = first[static_cast<std::size_t>(c * perChannel)];

    // Fixed blocks, each summed sequentially, then combined in block order: deterministic.
    const std::int64_t blocks = std::min<std::int64_t>(n, 256);
    std::vector<double> sum(static_cast<std::size_t>(blocks * channels), 0.0), sq(sum.size(), 0.0);
    std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
        try {
            std::vector<float> sample(static_cast<std::size_t>(shape.numel()));
            for (std::int64_t i = b * n / blocks; i < (b + 1) * n / blocks; ++i) {
                dataset.get(i, sample.data());
                for (std::int64_t c = 0; c < channels; ++c) {
                    const double k = shift[static_cast<std::size_t>(c)];
                    double s = 0, s2 = 0;
                    const float* p = sample.data() + c * perChannel;
                    for (std::int64_t j = 0; j < perChannel; ++j) {
                        const double d = p[j] - k;
                        s += d;
                        s2 += d * d;
                    }
                    sum[static_cast<std::size_t>(b * channels + c)] += s;
                    sq[static_cast<std::size_t>(b * channels + c)] += s2;
                }
            }
        } catch (...) {
#pragma omp critical
            if (!failure)
                failure = std::current_exception();
        }
    }
    if (failure)
        std::rethrow_exception(failure);  // e.g. a damaged image's DataError
    const double count = static_cast<double>(n) * static_cast<double>(perChannel);
    for (std::int64_t c = 0; c < channels; ++c) {
        double s = 0, s2 = 0;
        for (std::int64_t b = 0; b < blocks; ++b) {
            s += sum[static_cast<std::size_t>(b * channels + c)];
            s2 += sq[static_cast<std::size_t>(b * channels + c)];
        }
        const double meanShifted = s / count;
        stats.mean[static_cast<std::size_t>(c)] = shift[static_cast<std::size_t>(c)] + meanShifted;
        stats.stddev[static_cast<std::size_t>(c)] = std::sqrt(std::max(0.0, s2 / count - meanShifted * meanShifted));
    }
    return stats;
}

std::string hashHex(const std::string& text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string statisticsCachePath(const std::string& cacheDir, const std::string& name)
{
    return (std::filesystem::path(cacheDir) / ("stats-" + hashHex(name) + ".txt")).string();
}

// Format, one item a line:
//   trainstudio-statistics 1
//   key <hash of the key>
//   mean <c values>
//   std <c values>
//   counts <k values>
std::optional<DatasetStatistics> loadCachedStatistics(const std::string& path, const std::string& key)
{
    std::ifstream in(path);
    std::string word, version, storedKey;
    if (!(in >> word >> version) || word != "trainstudio-statistics" || version != "1")
        return std::nullopt;
    if (!(in >> word >> storedKey) || word != "key" || storedKey != hashHex(key))
        return std::nullopt;
    DatasetStatistics stats;
    std::string line;
    std::getline(in, line);
    for (int i = 0; i < 3 && std::getline(in, line); ++i) {
        std::istringstream fields(line);
        fields >> word;
        double v;
        if (word == "mean")
            while (fields >> v)
                stats.mean.push_back(v);
        else if (word == "std")
            while (fields >> v)
                stats.stddev.push_back(v);
        else if (word == "counts")
            while (fields >> v)
                stats.classCounts.push_back(static_cast<std::int64_t>(v));
        else
            return std::nullopt;
    }
    if (stats.mean.empty() || stats.mean.size() != stats.stddev.size())
        return std::nullopt;
    return stats;
}

void saveCachedStatistics(const std::string& path, const std::string& key, const DatasetStatistics& stats)
{
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    // A unique temporary name: two processes may open the same dataset at once.
    const std::string tmp = path + ".tmp" + std::to_string(std::random_device{}());
    {
        std::ofstream out(tmp);
        out.precision(17);
        out << "trainstudio-statistics 1\nkey " << hashHex(key) << "\nmean";
        for (double v : stats.mean)
            out << ' ' << v;
        out << "\nstd";
        for (double v : stats.stddev)
            out << ' ' << v;
        out << "\ncounts";
        for (std::int64_t v : stats.classCounts)
            out << ' ' << v;
        out << '\n';
        if (!out)
            return;
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        std::filesystem::remove(tmp, ec);
}

}  // namespace ts
