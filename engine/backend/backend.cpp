#include "backend/backend.h"

namespace ts {

bool Backend::supports(Primitive p, DType dtype) const
{
    if (isMemoryPrimitive(p)) return true;
    if (dtype != DType::F32) return false;
    return p != Primitive::upsample2dForward && p != Primitive::upsample2dBackward;  // the optional ones
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
