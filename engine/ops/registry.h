// Looks ops up by type name. builtin() holds every op of the engine: each op file registers
// its ops with TS_REGISTER_OPS(family) { r.add(...); }, and the build collects those lines
// (ops/collect_op_families.cmake) for builtin_ops.cpp. Static self-registration would be
// dropped by the linker from a static library; this keeps the one list the files themselves.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/op.h"

namespace ts {

class OpRegistry;
#define TS_REGISTER_OPS(family) void registerOps_##family(OpRegistry& r)

class OpRegistry {
public:
    void add(std::unique_ptr<Op> op);
    const Op* find(const std::string& type) const;
    std::vector<std::string> types() const;

    static const OpRegistry& builtin();

private:
    std::map<std::string, std::unique_ptr<Op>> ops_;
};

}  // namespace ts
