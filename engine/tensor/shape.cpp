#include "tensor/shape.h"

namespace ts {

std::int64_t Shape::numel() const { return product(0, rank()); }

std::int64_t Shape::product(int from, int to) const
{
    std::int64_t n = 1;
    for (int i = from; i < to; ++i) n *= dims_[static_cast<std::size_t>(i)];
    return n;
}

std::string Shape::str() const
{
    std::string s = "[";
    for (std::size_t i = 0; i < dims_.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(dims_[i]);
    }
    return s + "]";
}

}  // namespace ts
