// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerNormOps(OpRegistry&) {}
}  // namespace ts
