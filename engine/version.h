// The engine's version and the libraries it was built with.
#pragma once
#include <string>

namespace ts {

std::string engineVersion();  // "0.1.0"
std::string blasDescription();  // OpenBLAS configuration, e.g. "OpenBLAS 0.3.21 Haswell MAX_THREADS=64"

}  // namespace ts
