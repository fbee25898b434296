// A 64-bit perceptual hash of an image, for near-duplicate search (data/dataset_health.h).
//
// Which and why: a DCT hash ("pHash"). The image is turned grey (the mean of its channels),
// resampled to 32 x 32 by area averaging, and transformed with a 2-D DCT-II; the 64 lowest
// non-constant frequencies (in order of u + v, then u: the DC term is left out) are compared
// with their median, one bit each. Leaving DC out makes a brightness shift invisible (it moves
// only DC) and the median makes a contrast change invisible; a few changed pixels move the
// low frequencies only slightly, so only bits near the median flip. A difference hash (signs
// of neighbouring pixels of a 9 x 8 thumbnail) is cheaper, but on 28 x 28 images with large
// flat backgrounds many of its bits compare equal pixels and flip on noise, and a brightness
// shift that clips changes them; the DCT's cost (~15,000 multiply-adds per image) is small
// next to decoding.
//
// On small centred images a 64-bit hash of low frequencies is coarse: in Fashion-MNIST, many
// different sneakers hash within 4 bits of each other. So the hash only proposes pairs (through
// the index), and a pair is a near duplicate when their 16 x 16 thumbnails also agree
// (thumbnailDifference), which keeps "near" meaning "a copy, slightly changed".
#pragma once
#include <bit>
#include <cstdint>

namespace ts {

constexpr int kThumbnailSide = 16;

// `pixels` is [channels, height, width] (a Dataset sample, values in [0, 1]). With `thumbnail`,
// also writes the 16 x 16 grey thumbnail (0..255, area-averaged) that confirms a near pair.
std::uint64_t perceptualHash(const float* pixels, int channels, int height, int width,
                             std::uint8_t* thumbnail = nullptr);

// The mean absolute difference of two thumbnails (0..255) after each one's mean is taken away,
// so a brightness shift costs nothing. Measured (tst_dataset_health): brightened copies and
// copies with a few changed pixels up to 5.3; unrelated images whose hashes are within 8 bits
// 17 or more.
double thumbnailDifference(const std::uint8_t* a, const std::uint8_t* b);

inline int hammingDistance(std::uint64_t a, std::uint64_t b)
{
    return std::popcount(a ^ b);
}

}  // namespace ts
