// The engine's ops: every op file's TS_REGISTER_OPS, collected by the build into
// ops_families.inc (ops/collect_op_families.cmake), so the list is never written by hand.
#include "ops/registry.h"

namespace ts {

#define TS_OP_FAMILY(family) TS_REGISTER_OPS(family);
#include "ops_families.inc"
#undef TS_OP_FAMILY

void registerBuiltinOps(OpRegistry& r)
{
#define TS_OP_FAMILY(family) registerOps_##family(r);
#include "ops_families.inc"
#undef TS_OP_FAMILY
}

}  // namespace ts
