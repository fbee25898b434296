// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerStructureOps(OpRegistry&) {}
}  // namespace ts
