// Pieces several op families share: the weight-initialisation attribute and float views.
#pragma once
#include <cmath>
#include <string>

#include "ops/op.h"
#include "ops/op_text.h"

namespace ts {

// attribute `init`: how weights start. Kaiming (He) with gain sqrt(2) is the default for ReLU
// networks. "pytorch" is torch.nn's default for Linear and Conv (kaiming_uniform with a = sqrt(5):
// weights and biases uniform in +-1/sqrt(fan_in)), so a PyTorch recipe can be reproduced.
inline AttrSpec weightInitAttr()
{
    return AttrSpec{"init", AttrType::String, AttrValue(std::string("kaiming_normal")), {}, 0,
                    {"kaiming_normal", "kaiming_uniform", "xavier_normal", "xavier_uniform", "pytorch", "zeros"}}
        .withHelp(QT_TRANSLATE_NOOP("AttrHelp", "How the weights start. kaiming_normal (the default) or kaiming_uniform for ReLU networks; "
                                    "xavier for tanh or sigmoid; pytorch (uniform ±1/sqrt(fan_in), also for the bias) reproduces "
                                    "a PyTorch recipe; zeros only for tests (every unit would learn the same)."));
}

// Attributes several ops share, with the same meaning and help wherever they appear.
inline AttrSpec biasAttr()
{
    return AttrSpec{"bias", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
        "AttrHelp", "Adds a learned bias. Turn it off when a normalization layer follows (its shift does the same)."));
}
inline AttrSpec epsAttr()
{
    return AttrSpec{"eps", AttrType::Float, AttrValue(1e-5),
                    [](const AttrValue& v) -> std::string { return std::get<double>(v) > 0 ? "" : "must be > 0"; }}
        .withHelp(QT_TRANSLATE_NOOP("AttrHelp", "Added to the variance before the square root so it is never zero. Keep the default 1e-5."));
}
inline AttrSpec affineAttr()
{
    return AttrSpec{"affine", AttrType::Bool, AttrValue(true)}.withHelp(QT_TRANSLATE_NOOP(
        "AttrHelp", "Learns a scale and a shift per channel after normalizing. Keep it on unless you know why not."));
}

// in_channels, num_features, num_channels: the input's channels, 0 taking them from the input.
inline AttrSpec inputChannelsAttr(const char* name)
{
    return AttrSpec{name, AttrType::Int, AttrValue(std::int64_t{0}), atLeast(0)}.withHelp(
        QT_TRANSLATE_NOOP("AttrHelp", "The input's channels. 0 takes them from the input; a number is checked against it."));
}

// The bias follows the weights' `init`: zeros, except PyTorch's uniform +-1/sqrt(fan_in).
inline InitSpec biasInit(const Attrs& attrs, double fanIn)
{
    if (attrs.getString("init") != "pytorch") return {InitKind::Zeros};
    return {InitKind::KaimingUniform, fanIn, 1.0, 1.0 / std::sqrt(3.0), {}};
}

inline InitSpec weightInit(const Attrs& attrs, double fanIn, double fanOut)
{
    const std::string& kind = attrs.getString("init");
    InitSpec s;
    s.fanIn = fanIn;
    s.fanOut = fanOut;
    // KaimingUniform's bound is gain * sqrt(3 / fanIn): gain 1/sqrt(3) gives PyTorch's 1/sqrt(fanIn).
    s.gain = kind == "pytorch" ? 1.0 / std::sqrt(3.0) : kind.rfind("kaiming", 0) == 0 ? std::sqrt(2.0) : 1.0;
    s.kind = kind == "kaiming_normal"    ? InitKind::KaimingNormal
           : kind == "kaiming_uniform" || kind == "pytorch" ? InitKind::KaimingUniform
           : kind == "xavier_normal"     ? InitKind::XavierNormal
           : kind == "xavier_uniform"    ? InitKind::XavierUniform
                                         : InitKind::Zeros;
    return s;
}

inline float* f32(const Tensor& t) { return t.defined() ? t.data<float>() : nullptr; }

}  // namespace ts
