#include "tensor/tensor.h"

#include <algorithm>
#include <cstring>

namespace ts {

Storage::Storage(Allocator& allocator, std::size_t bytes)
    : allocator_(allocator), bytes_(bytes), data_(allocator.allocate(bytes))
{
}

Storage::~Storage() { allocator_.deallocate(data_, bytes_); }

Tensor Tensor::empty(Shape shape, DType dtype, Allocator& allocator)
{
    Tensor t;
    t.shape_ = std::move(shape);
    t.dtype_ = dtype;
    t.storage_ = std::make_shared<Storage>(allocator, t.bytes());
    return t;
}

Tensor Tensor::view(std::shared_ptr<Storage> storage, std::size_t offset, Shape shape, DType dtype)
{
    Tensor t;
    t.shape_ = std::move(shape);
    t.dtype_ = dtype;
    if (offset + t.bytes() > storage->bytes())
        throw std::out_of_range("tensor view " + t.shape_.str() + " at byte " + std::to_string(offset) +
                                " exceeds storage of " + std::to_string(storage->bytes()) + " bytes");
    t.storage_ = std::move(storage);
    t.offset_ = offset;
    return t;
}

Tensor Tensor::zeros(Shape shape, DType dtype)
{
    Tensor t = empty(std::move(shape), dtype);
    std::memset(t.raw(), 0, t.bytes());
    return t;
}

Tensor Tensor::full(Shape shape, float value)
{
    Tensor t = empty(std::move(shape), DType::F32);
    std::fill_n(t.data<float>(), t.numel(), value);
    return t;
}

Device Tensor::device() const { return storage_ ? storage_->device() : Device{}; }

void* Tensor::raw() const
{
    if (!storage_) throw std::logic_error("access to an undefined tensor");
    return static_cast<char*>(storage_->data()) + offset_;
}

Tensor Tensor::reshaped(Shape shape) const
{
    if (shape.numel() != numel())
        throw std::invalid_argument("cannot reshape " + shape_.str() + " to " + shape.str());
    Tensor t = *this;
    t.shape_ = std::move(shape);
    return t;
}

Tensor Tensor::clone() const
{
    if (device().kind != DeviceKind::CPU) throw std::logic_error("Tensor::clone is host-only");
    Tensor t = empty(shape_, dtype_);
    std::memcpy(t.raw(), raw(), bytes());
    return t;
}

}  // namespace ts
