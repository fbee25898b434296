#include "tensor/dtype.h"

namespace ts {

std::size_t dtypeSize(DType t)
{
    switch (t) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::BF16: return 2;
    case DType::I32: return 4;
    case DType::I64: return 8;
    case DType::U8: return 1;
    }
    return 0;
}

std::string_view dtypeName(DType t)
{
    switch (t) {
    case DType::F32: return "f32";
    case DType::F16: return "f16";
    case DType::BF16: return "bf16";
    case DType::I32: return "i32";
    case DType::I64: return "i64";
    case DType::U8: return "u8";
    }
    return "?";
}

std::optional<DType> parseDType(std::string_view name)
{
    for (DType t : {DType::F32, DType::F16, DType::BF16, DType::I32, DType::I64, DType::U8})
        if (dtypeName(t) == name) return t;
    return std::nullopt;
}

std::string_view deviceKindName(DeviceKind k)
{
    return k == DeviceKind::CPU ? "cpu" : "cuda";
}

}  // namespace ts
