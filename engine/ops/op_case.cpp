#include "ops/op_case.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "tensor/tensor.h"

namespace ts {

void fillInput(const InputFill& f, Tensor& t, std::mt19937_64& rng)
{
    const auto n = static_cast<std::size_t>(t.numel());
    if (t.dtype() == DType::I64 || t.dtype() == DType::I32) {
        const std::int64_t lo = f.kind == InputFill::Kind::Integers ? std::int64_t(f.a) : 0;
        const std::int64_t hi = f.kind == InputFill::Kind::Integers ? std::int64_t(f.b) : 1;
        std::uniform_int_distribution<std::int64_t> d(lo, hi - 1);
        for (std::size_t i = 0; i < n; ++i) {
            if (t.dtype() == DType::I64) t.data<std::int64_t>()[i] = d(rng);
            else t.data<std::int32_t>()[i] = static_cast<std::int32_t>(d(rng));
        }
        return;
    }
    if (t.dtype() != DType::F32) throw std::invalid_argument("op cases take f32, i32 or i64 inputs");
    float* x = t.data<float>();
    switch (f.kind) {
    case InputFill::Kind::Normal:
    case InputFill::Kind::Integers: {
        std::normal_distribution<double> d(0.0, f.kind == InputFill::Kind::Normal ? f.a : 1.0);
        for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(d(rng));
        return;
    }
    case InputFill::Kind::AwayFromZero: {
        std::uniform_real_distribution<double> d(f.a, f.a + 1.5);
        std::bernoulli_distribution sign(0.5);
        for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(sign(rng) ? d(rng) : -d(rng));
        return;
    }
    case InputFill::Kind::Distinct: {
        std::vector<std::int64_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>((double(order[i]) - double(n) / 2) * f.a);
        return;
    }
    case InputFill::Kind::Mask: {
        std::bernoulli_distribution real(f.a);
        for (std::size_t i = 0; i < n; ++i) x[i] = real(rng) ? 1.0f : 0.0f;
        return;
    }
    case InputFill::Kind::Uniform: {
        std::uniform_real_distribution<double> d(f.a, f.b);
        for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(d(rng));
        return;
    }
    }
}

}  // namespace ts
