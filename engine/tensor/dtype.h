// Element types a tensor can hold, and their sizes and names.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ts {

enum class DType : std::uint8_t { F32, F16, BF16, I32, I64, U8 };

std::size_t dtypeSize(DType t);
std::string_view dtypeName(DType t);
std::optional<DType> parseDType(std::string_view name);

enum class DeviceKind : std::uint8_t { CPU, CUDA };

struct Device {
    DeviceKind kind = DeviceKind::CPU;
    int index = 0;
    bool operator==(const Device&) const = default;
};

std::string_view deviceKindName(DeviceKind k);

}  // namespace ts
