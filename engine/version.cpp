#include "version.h"

#include <cblas.h>

namespace ts {

std::string engineVersion() { return TS_VERSION; }

std::string blasDescription()
{
    const char* config = openblas_get_config();
    return std::string(config ? config : "OpenBLAS") + " (" + openblas_get_corename() + ")";
}

}  // namespace ts
