// A backend that records which primitives are called on it, in order, and passes them on to
// an inner backend, or to none: then nothing is computed (a dry run on placeholder tensors,
// ForwardingBackend). Running an op on it tells, without any declaration by the op, which
// primitives its forward and backward use (ops/op_trace.h): what a backend must support to
// run it, and what the executor's plan looks for when it falls back to the CPU or fuses.
#pragma once
#include <optional>
#include <vector>

#include "backend/forwarding_backend.h"

namespace ts {

struct PrimitiveCall {
    Primitive primitive;
    std::optional<Activation> activation;  // for activationForward and activationBackward
    bool operator==(const PrimitiveCall&) const = default;
};

class TracingBackend final : public ForwardingBackend {
public:
    explicit TracingBackend(Backend* inner = nullptr) : ForwardingBackend(inner) {}
    const std::vector<PrimitiveCall>& calls() const { return calls_; }
    // The calls so far; the list starts again empty.
    std::vector<PrimitiveCall> take();

protected:
    void called(Primitive p, std::optional<Activation> activation) override;

private:
    std::vector<PrimitiveCall> calls_;
};

}  // namespace ts
