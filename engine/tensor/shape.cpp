#include "tensor/shape.h"

#include "tensor/checked_size.h"

namespace ts {

std::int64_t Shape::numel() const { return product(0, rank()); }

std::int64_t Shape::product(int from, int to) const
{
    // Checked: a shape built from a user's batch or layer sizes may hold more elements than
    // an int64 counts, and a wrapped count would pass every later check.
    std::int64_t n = 1;
    for (int i = from; i < to; ++i)
        if (!mulFits(n, dims_[static_cast<std::size_t>(i)], n))
            throw SizeOverflow("the shape " + str() + " has more elements than 64-bit arithmetic counts (9.2e18)");
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
