#include "backend/cross_rank.h"

#include <algorithm>
#include <cmath>

namespace ts {

std::vector<double> sumOverRanks(std::span<const double> local,
                                 const std::function<void(std::vector<float>&)>& exchange)
{
    std::vector<float> pairs(2 * local.size());
    for (std::size_t i = 0; i < local.size(); ++i) {
        const float hi = static_cast<float>(local[i]);
        pairs[2 * i] = hi;
        pairs[2 * i + 1] = static_cast<float>(local[i] - double(hi));
    }
    exchange(pairs);
    std::vector<double> global(local.size());
    for (std::size_t i = 0; i < local.size(); ++i) global[i] = double(pairs[2 * i]) + double(pairs[2 * i + 1]);
    return global;
}

MeansOverRanks meanOverRanks(std::span<const double> localSums, double localCount,
                             const std::function<void(std::vector<float>&)>& exchange)
{
    std::vector<double> local(localSums.begin(), localSums.end());
    local.push_back(localCount);  // the count travels along
    MeansOverRanks out{sumOverRanks(local, exchange), 0};
    out.count = out.mean.back();
    out.mean.pop_back();
    for (double& v : out.mean) v /= out.count;
    return out;
}

void finishBatchNormStatistics(const GlobalMoments& m, float momentum, float eps, float* saveMean, float* saveInvStd,
                               float* runningMean, float* runningVar)
{
    // One value per channel in the whole batch has no unbiased variance: the batch's (zero) one.
    const double unbias = m.count > 1 ? m.count / (m.count - 1) : 1.0;
    for (std::size_t ch = 0; ch < m.mean.size(); ++ch) {
        const double var = std::max(0.0, m.var[ch]);
        saveMean[ch] = static_cast<float>(m.mean[ch]);
        saveInvStd[ch] = static_cast<float>(1.0 / std::sqrt(var + double(eps)));
        runningMean[ch] = static_cast<float>((1.0 - momentum) * runningMean[ch] + double(momentum) * m.mean[ch]);
        runningVar[ch] = static_cast<float>((1.0 - momentum) * runningVar[ch] + double(momentum) * var * unbias);
    }
}

}  // namespace ts
