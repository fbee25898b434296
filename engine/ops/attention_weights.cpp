#include "ops/attention_weights.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ts {

std::vector<float> attentionWeights(const AttentionWeightsInput& in)
{
    using I = std::int64_t;
    const I t = in.tokens, c = in.channels, h = in.heads;
    if (h < 1 || c % h != 0)
        throw std::invalid_argument(std::to_string(h) + " heads do not divide the " + std::to_string(c) + " channels");
    const I d = c / h;
    // q and k for every token in double (the map is for looking at; double keeps it within
    // float rounding of what the model computed), heads side by side as in the op.
    std::vector<double> q(std::size_t(t * c)), k(std::size_t(t * c));
    for (I i = 0; i < t; ++i) {
        const float* x = in.x + i * c;
        for (I o = 0; o < 2 * c; ++o) {
            const float* w = in.inProjWeight + o * c;
            double s = in.inProjBias ? double(in.inProjBias[o]) : 0.0;
            for (I j = 0; j < c; ++j) s += double(x[j]) * double(w[j]);
            (o < c ? q[std::size_t(i * c + o)] : k[std::size_t(i * c + o - c)]) = s;
        }
    }
    const double scale = 1.0 / std::sqrt(double(d));
    std::vector<float> weights(std::size_t(h * t * t), 0.0f);
    std::vector<double> row(static_cast<std::size_t>(t));
    for (I head = 0; head < h; ++head) {
        for (I i = 0; i < t; ++i) {
            double top = -std::numeric_limits<double>::infinity();
            const I end = in.causal ? i + 1 : t;  // causal: keys 0..i
            for (I j = 0; j < end; ++j) {
                if (in.keyMask && in.keyMask[j] == 0.0f) {
                    row[std::size_t(j)] = -std::numeric_limits<double>::infinity();
                    continue;
                }
                double s = 0;
                for (I e = 0; e < d; ++e) s += q[std::size_t(i * c + head * d + e)] * k[std::size_t(j * c + head * d + e)];
                row[std::size_t(j)] = s * scale;
                top = std::max(top, row[std::size_t(j)]);
            }
            if (top == -std::numeric_limits<double>::infinity()) continue;  // no key allowed: zeros
            double sum = 0;
            for (I j = 0; j < end; ++j) sum += row[std::size_t(j)] = std::exp(row[std::size_t(j)] - top);
            float* out = weights.data() + (head * t + i) * t;
            for (I j = 0; j < end; ++j) out[j] = float(row[std::size_t(j)] / sum);
        }
    }
    return weights;
}

}  // namespace ts
