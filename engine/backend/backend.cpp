#include "backend/backend.h"

namespace ts {

bool Backend::supports(Primitive p, DType dtype) const
{
    if (isMemoryPrimitive(p)) return true;
    if (dtype != DType::F32) return false;
    switch (p) {  // the optional ones
    case Primitive::upsample2dForward:
    case Primitive::upsample2dBackward:
    case Primitive::attentionForward:
    case Primitive::attentionBackward:
    case Primitive::permute:
    case Primitive::robustLossForward:
    case Primitive::robustLossBackward:
    case Primitive::recurrentCellForward:
    case Primitive::recurrentCellBackward: return false;
    default: return true;
    }
}

std::string compiledBackends()
{
#ifdef TS_WITH_CUDA
    return "cpu, cuda";
#else
    return "cpu";
#endif
}

}  // namespace ts
