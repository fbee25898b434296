// What the convolutions share (Conv2d, Conv1d, ConvTranspose2d): the channel rules of a grouped
// convolution and the attributes that mean the same in each, with their help texts.
#pragma once
#include <cstdint>
#include <string>

#include "ops/op.h"
#include "ops/op_text.h"

namespace ts {

// in_channels (0: take the input's) checked against the input, and `groups` dividing both sides.
inline void checkGroupedChannels(std::int64_t channels, std::int64_t declared, std::int64_t outChannels,
                                 std::int64_t groups)
{
    const auto text = [](std::int64_t v) { return std::to_string(v); };
    if (declared > 0 && declared != channels) throw OpError("input has " + text(channels) + " channels", {"in_channels"});
    if (channels % groups != 0)
        throw OpError("groups = " + text(groups) + " does not divide the input's " + text(channels) + " channels", {"groups"});
    if (outChannels % groups != 0)
        throw OpError("groups = " + text(groups) + " does not divide out_channels = " + text(outChannels),
                      {"groups", "out_channels"});
}

// `dims` numbers (one per spatial dimension).
inline AttrSpec dilationAttr(int dims)
{
    return AttrSpec{"dilation", AttrType::Ints, AttrValue(std::int64_t{1}), atLeast(1), dims}.withHelp(
        QT_TRANSLATE_NOOP("AttrHelp", "The spacing between the filter's taps: 2 sees a wider area with the same weights."));
}
inline AttrSpec groupsAttr()
{
    return AttrSpec{"groups", AttrType::Int, AttrValue(std::int64_t{1}), atLeast(1)}.withHelp(
        QT_TRANSLATE_NOOP("AttrHelp", "Splits the channels into groups convolved separately; in and out channels must divide by it. "
                                      "groups = in_channels is a depthwise convolution."));
}

}  // namespace ts
