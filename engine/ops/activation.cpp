// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerActivationOps(OpRegistry&) {}
}  // namespace ts
