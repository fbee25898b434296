#include "ops/registry.h"

namespace ts {

void registerBuiltinOps(OpRegistry& registry);  // builtin_ops.cpp

std::string opCategoryName(OpCategory c)
{
    switch (c) {
    case OpCategory::Layer: return "layer";
    case OpCategory::Recurrent: return "recurrent";
    case OpCategory::Activation: return "activation";
    case OpCategory::Normalization: return "normalization";
    case OpCategory::Pooling: return "pooling";
    case OpCategory::Structure: return "structure";
    case OpCategory::Loss: return "loss";
    }
    return "layer";
}

void OpRegistry::add(std::unique_ptr<Op> op)
{
    std::string type = op->type();
    ops_[type] = std::move(op);
}

const Op* OpRegistry::find(const std::string& type) const
{
    auto it = ops_.find(type);
    return it == ops_.end() ? nullptr : it->second.get();
}

std::vector<std::string> OpRegistry::types() const
{
    std::vector<std::string> out;
    for (const auto& [type, op] : ops_) out.push_back(type);
    return out;
}

const OpRegistry& OpRegistry::builtin()
{
    static const OpRegistry registry = [] {
        OpRegistry r;
        registerBuiltinOps(r);
        return r;
    }();
    return registry;
}

}  // namespace ts
