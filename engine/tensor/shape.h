// A tensor's dimensions, outermost first (row-major, NCHW for images).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace ts {

class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<std::int64_t> dims) : dims_(dims) {}
    explicit Shape(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {}

    int rank() const { return static_cast<int>(dims_.size()); }
    std::int64_t operator[](int i) const { return dims_[static_cast<std::size_t>(i < 0 ? i + rank() : i)]; }
    std::int64_t& operator[](int i) { return dims_[static_cast<std::size_t>(i < 0 ? i + rank() : i)]; }
    // Throws SizeOverflow (tensor/checked_size.h) when the count does not fit an int64.
    std::int64_t numel() const;
    // Product of dims in [from, to); checked like numel().
    std::int64_t product(int from, int to) const;
    const std::vector<std::int64_t>& dims() const { return dims_; }
    bool operator==(const Shape&) const = default;
    // "[128, 1, 28, 28]"
    std::string str() const;

private:
    std::vector<std::int64_t> dims_;
};

}  // namespace ts
