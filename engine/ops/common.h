// Pieces several op families share: the weight-initialisation attribute and float views.
#pragma once
#include <cmath>
#include <string>

#include "ops/op.h"

namespace ts {

// attribute `init`: how weights start. Kaiming (He) with gain sqrt(2) is the default for ReLU networks.
inline AttrSpec weightInitAttr()
{
    return AttrSpec{"init", AttrType::String, AttrValue(std::string("kaiming_normal")), {}, 0,
                    {"kaiming_normal", "kaiming_uniform", "xavier_normal", "xavier_uniform", "zeros"}};
}

inline InitSpec weightInit(const Attrs& attrs, double fanIn, double fanOut)
{
    const std::string& kind = attrs.getString("init");
    InitSpec s;
    s.fanIn = fanIn;
    s.fanOut = fanOut;
    s.gain = kind.rfind("kaiming", 0) == 0 ? std::sqrt(2.0) : 1.0;
    s.kind = kind == "kaiming_normal"    ? InitKind::KaimingNormal
           : kind == "kaiming_uniform"   ? InitKind::KaimingUniform
           : kind == "xavier_normal"     ? InitKind::XavierNormal
           : kind == "xavier_uniform"    ? InitKind::XavierUniform
                                         : InitKind::Zeros;
    return s;
}

inline float* f32(const Tensor& t) { return t.defined() ? t.data<float>() : nullptr; }

}  // namespace ts
