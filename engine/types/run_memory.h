// What a training run needs in device memory, planned before anything is allocated
// (train/memory_advice.h plans it; the trainer's StartedEvent carries it to every front end).
#pragma once
#include <cstddef>

namespace ts {

struct RunMemory {
    std::size_t parameters = 0, gradients = 0, optimizerState = 0, activations = 0, workspace = 0;
    std::size_t total() const { return parameters + gradients + optimizerState + activations + workspace; }
    bool operator==(const RunMemory&) const = default;
};

}  // namespace ts
