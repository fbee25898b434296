// A tensor: shape + dtype + a view (byte offset) into reference-counted storage.
// Storage comes from an Allocator; several tensors may view one storage (the executor
// carves all activations out of one planned arena).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "tensor/allocator.h"
#include "tensor/checked_size.h"
#include "tensor/dtype.h"
#include "tensor/shape.h"

namespace ts {

class Storage {
public:
    Storage(Allocator& allocator, std::size_t bytes);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    void* data() const { return data_; }
    std::size_t bytes() const { return bytes_; }
    Device device() const { return allocator_.device(); }

private:
    Allocator& allocator_;
    std::size_t bytes_;
    void* data_;
};

template <class T> constexpr DType dtypeOf();
template <> constexpr DType dtypeOf<float>() { return DType::F32; }
template <> constexpr DType dtypeOf<std::int32_t>() { return DType::I32; }
template <> constexpr DType dtypeOf<std::int64_t>() { return DType::I64; }
template <> constexpr DType dtypeOf<std::uint8_t>() { return DType::U8; }

class Tensor {
public:
    Tensor() = default;  // undefined: no storage
    // Fresh storage from `allocator` (host memory by default). Contents are uninitialised.
    static Tensor empty(Shape shape, DType dtype = DType::F32, Allocator& allocator = CpuAllocator::instance());
    // A view of `bytes(shape, dtype)` bytes at `offset` in existing storage.
    static Tensor view(std::shared_ptr<Storage> storage, std::size_t offset, Shape shape, DType dtype);
    // Host-only conveniences (tests, data loading).
    static Tensor zeros(Shape shape, DType dtype = DType::F32);
    static Tensor full(Shape shape, float value);

    bool defined() const { return storage_ != nullptr; }
    const Shape& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    Device device() const;
    std::int64_t numel() const { return shape_.numel(); }
    std::size_t bytes() const { return checkedMul(static_cast<std::size_t>(numel()), dtypeSize(dtype_), "a tensor's bytes"); }
    std::size_t offset() const { return offset_; }
    const std::shared_ptr<Storage>& storage() const { return storage_; }

    void* raw() const;
    template <class T> T* data() const
    {
        if (dtypeOf<T>() != dtype_)
            throw std::logic_error("tensor of " + std::string(dtypeName(dtype_)) + " read as " +
                                   std::string(dtypeName(dtypeOf<T>())));
        return static_cast<T*>(raw());
    }
    // Same storage, another shape with the same element count.
    Tensor reshaped(Shape shape) const;
    // A deep copy in fresh host storage (host tensors only).
    Tensor clone() const;

private:
    std::shared_ptr<Storage> storage_;
    std::size_t offset_ = 0;
    Shape shape_;
    DType dtype_ = DType::F32;
};

}  // namespace ts
