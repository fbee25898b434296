// PLACEHOLDER: to be written.
#include "ops/registry.h"
namespace ts {
void registerPoolOps(OpRegistry&) {}
}  // namespace ts
