// Chooses the backend a run asks for: "cpu", "cuda", "cuda:N" or "auto".
#pragma once
#include <string>

#include "types/message.h"

namespace ts {

class Backend;

// What the backend is for: the CPU fallback's notice says it ("training on the CPU" would be
// wrong for eval and predict).
enum class BackendPurpose { Train, Evaluate, Predict };

// "auto" picks a CUDA device when the CUDA backend can run one, else the CPU, and says so in
// `notice`. "cuda" without a usable GPU throws std::runtime_error naming why and the way out.
// An unknown name throws std::invalid_argument.
Backend& selectBackend(const std::string& device, Message* notice = nullptr, BackendPurpose purpose = BackendPurpose::Train);

}  // namespace ts
