// Size arithmetic that cannot wrap. Shapes, costs and memory plans multiply numbers a user
// wrote (a batch of 2^63-1, out_features 10^9): a wrapped product shows up as negative MFLOPs
// or a plan of a few KiB, so every product and sum of sizes goes through these. An overflow
// throws SizeOverflow; checkGraph turns it into a GraphError naming the node.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ts {

class SizeOverflow : public std::overflow_error {
public:
    using std::overflow_error::overflow_error;
};

// The largest size one dimension or a size attribute (out_features, kernel_size, ...) may
// have: 2^31 - 1, what BLAS and cuDNN take as a dimension. Products of several such numbers
// are checked; single ones above it are refused where they are read (checkGraph).
inline constexpr std::int64_t kMaxDimension = 2147483647;

// a * b and a + b, or false when the result does not fit (the result is then unspecified).
inline bool mulFits(std::int64_t a, std::int64_t b, std::int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }
inline bool mulFits(std::size_t a, std::size_t b, std::size_t& out) { return !__builtin_mul_overflow(a, b, &out); }
inline bool addFits(std::size_t a, std::size_t b, std::size_t& out) { return !__builtin_add_overflow(a, b, &out); }

// Throwing forms; `what` says what was being counted ("the planned memory"), for the message.
inline std::size_t checkedMul(std::size_t a, std::size_t b, const char* what)
{
    std::size_t out = 0;
    if (!mulFits(a, b, out))
        throw SizeOverflow(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) +
                           " is more than 64-bit arithmetic holds (16 EiB)");
    return out;
}
inline std::size_t checkedAdd(std::size_t a, std::size_t b, const char* what)
{
    std::size_t out = 0;
    if (!addFits(a, b, out)) throw SizeOverflow(std::string(what) + ": more than 64-bit arithmetic holds (16 EiB)");
    return out;
}

}  // namespace ts
