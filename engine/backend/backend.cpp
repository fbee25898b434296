#include "backend/backend.h"

namespace ts {

std::string compiledBackends()
{
#ifdef TS_WITH_CUDA
    return "cpu, cuda";
#else
    return "cpu";
#endif
}

}  // namespace ts
