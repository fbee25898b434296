#include "ops/init.h"

#include <algorithm>
#include <cmath>

namespace ts {

std::uint64_t stableHash(std::string_view text)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

std::uint64_t mixSeed(std::uint64_t a, std::uint64_t b)
{
    std::uint64_t z = a ^ (b + 0x9E3779B97F4A7C15ull + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void initialise(const InitSpec& spec, float* out, std::int64_t n, std::uint64_t seed)
{
    const double fanIn = std::max(1.0, spec.fanIn), fanOut = std::max(1.0, spec.fanOut);
    auto uniform = [&](double bound) {
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = static_cast<float>((2.0 * hashUniform(seed, static_cast<std::uint64_t>(i)) - 1.0) * bound);
    };
    auto normal = [&](double stddev) {  // Box-Muller over pairs of counter-based uniforms
        for (std::int64_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::uint64_t>(i / 2) * 2;
            double u1 = 1.0 - hashUniform(seed, k), u2 = hashUniform(seed, k + 1);
            double r = std::sqrt(-2.0 * std::log(u1)), a = 2.0 * M_PI * u2;
            out[i] = static_cast<float>(stddev * r * (i % 2 ? std::sin(a) : std::cos(a)));
        }
    };
    switch (spec.kind) {
    case InitKind::Zeros: std::fill_n(out, n, 0.0f); break;
    case InitKind::Ones: std::fill_n(out, n, 1.0f); break;
    case InitKind::KaimingUniform: uniform(spec.gain * std::sqrt(3.0 / fanIn)); break;
    case InitKind::KaimingNormal: normal(spec.gain / std::sqrt(fanIn)); break;
    case InitKind::XavierUniform: uniform(spec.gain * std::sqrt(6.0 / (fanIn + fanOut))); break;
    case InitKind::XavierNormal: normal(spec.gain * std::sqrt(2.0 / (fanIn + fanOut))); break;
    case InitKind::Normal: normal(spec.gain); break;
    case InitKind::Values:
        for (std::int64_t i = 0; i < n; ++i)
            out[i] = spec.values.empty() ? 0.0f : spec.values[static_cast<std::size_t>(i) % spec.values.size()];
        break;
    }
}

}  // namespace ts
