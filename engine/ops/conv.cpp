// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerConvOps(OpRegistry&) {}
}  // namespace ts
