#include "backend/tracing_backend.h"

#include <utility>

namespace ts {

std::vector<PrimitiveCall> TracingBackend::take() { return std::exchange(calls_, {}); }

void TracingBackend::called(Primitive p, std::optional<Activation> activation) { calls_.push_back({p, activation}); }

}  // namespace ts
