// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerLossOps(OpRegistry&) {}
}  // namespace ts
