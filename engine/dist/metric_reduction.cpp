#include "dist/metric_reduction.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "dist/communicator.h"

namespace ts {

namespace {

// Each rank's per-sample vector, concatenated in rank order on every rank: a zero buffer of
// the total length with this rank's values at its offset, summed (adding zeros is exact).
template <class T> void concatenate(Communicator& comm, std::vector<T>& values)
{
    std::vector<double> lengths(std::size_t(comm.size()), 0.0);
    lengths[std::size_t(comm.rank())] = double(values.size());
    comm.allReduceSumHost(lengths.data(), lengths.size());
    std::size_t total = 0, offset = 0;
    for (int r = 0; r < comm.size(); ++r) {
        if (r == comm.rank()) offset = total;
        total += std::size_t(lengths[std::size_t(r)]);
    }
    std::vector<double> all(total, 0.0);
    for (std::size_t i = 0; i < values.size(); ++i) all[offset + i] = double(values[i]);
    comm.allReduceSumHost(all.data(), all.size());
    values.resize(total);
    for (std::size_t i = 0; i < total; ++i) values[i] = T(all[i]);
}

}  // namespace

void allReduceMetricSums(Communicator& comm, MetricSums& sums)
{
    if (comm.size() == 1) return;
    std::vector<double> flat{double(sums.count), sums.lossSum, double(sums.lossCount)};
    for (auto v : sums.topKCorrect) flat.push_back(double(v));
    for (auto v : sums.confusion) flat.push_back(double(v));
    flat.insert(flat.end(), sums.valueSums.begin(), sums.valueSums.end());  // regression: all sums
    double length = double(flat.size());  // the same classes and k values on every rank
    comm.allReduceSumHost(&length, 1);
    if (length != double(flat.size()) * comm.size())
        throw std::logic_error("metric sums of different shapes across ranks (classes or top-k differ)");
    comm.allReduceSumHost(flat.data(), flat.size());
    std::size_t i = 0;
    sums.count = std::int64_t(flat[i++]);
    sums.lossSum = flat[i++];
    sums.lossCount = std::int64_t(flat[i++]);
    for (auto& v : sums.topKCorrect) v = std::int64_t(flat[i++]);
    for (auto& v : sums.confusion) v = std::int64_t(flat[i++]);
    for (auto& v : sums.valueSums) v = flat[i++];
    concatenate(comm, sums.binaryScores);  // per sample (ROC-AUC of two classes)
    concatenate(comm, sums.binaryPositive);
}

void broadcastMetrics(Communicator& comm, std::map<std::string, double>& metrics, bool& flag, int root)
{
    if (comm.size() == 1) return;
    // "name\0" + 8 bytes of value, repeated; the flag first.
    std::string bytes;
    if (comm.rank() == root) {
        bytes.push_back(flag ? 1 : 0);
        for (const auto& [name, value] : metrics) {
            bytes += name;
            bytes.push_back('\0');
            bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
        }
    }
    std::uint64_t length = bytes.size();
    comm.broadcastHost(&length, sizeof length, root);
    bytes.resize(length);
    comm.broadcastHost(bytes.data(), length, root);
    if (comm.rank() == root) return;
    metrics.clear();
    flag = !bytes.empty() && bytes[0] != 0;
    for (std::size_t at = 1; at < bytes.size();) {
        const std::size_t zero = bytes.find('\0', at);
        double value = 0;
        std::memcpy(&value, bytes.data() + zero + 1, sizeof value);
        metrics[bytes.substr(at, zero - at)] = value;
        at = zero + 1 + sizeof value;
    }
}

}  // namespace ts
