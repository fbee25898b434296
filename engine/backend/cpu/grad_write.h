// GradWrite (backend.h) as a compile-time choice, so a backward loop stays branch-free and
// vectorises the same either way:
//   withGradWrite(write, [&](auto mode) { for (...) putGrad(mode, dx[i], value); });
#pragma once
#include <type_traits>

#include "backend/backend.h"

namespace ts::cpu {

using OverwriteMode = std::true_type;
using AccumulateMode = std::false_type;

template <class Mode> inline void putGrad(Mode, float& dx, float value)
{
    if constexpr (Mode::value) dx = value;
    else dx += value;
}

template <class Fn> decltype(auto) withGradWrite(GradWrite write, Fn&& fn)
{
    return write == GradWrite::Overwrite ? fn(OverwriteMode{}) : fn(AccumulateMode{});
}

}  // namespace ts::cpu
