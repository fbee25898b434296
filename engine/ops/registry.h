// Looks ops up by type name. builtin() holds every op of the engine, registered
// explicitly in builtin_ops.cpp (static self-registration is dropped by the linker
// from static libraries).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/op.h"

namespace ts {

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
