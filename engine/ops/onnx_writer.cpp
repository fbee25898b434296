#include "ops/onnx_writer.h"

#include <algorithm>
#include <cmath>

namespace ts {

std::string OnnxNodeExport::floatParam(const std::string& local)
{
    const Tensor& t = param(local);
    return b.floats(name + "." + local, t.shape().dims(), t.data<float>());
}

// Symmetric (zero point 0, range ±127) keeps every channel's zero exact.
std::string OnnxNodeExport::weightInput(const std::string& local)
{
    if (!quantize) return floatParam(local);
    const Tensor& w = param(local);
    const std::int64_t rows = w.shape()[0], cols = w.numel() / rows;
    const float* data = w.data<float>();
    std::vector<float> scales(static_cast<std::size_t>(rows));
    std::vector<std::int8_t> q(static_cast<std::size_t>(w.numel()));
    for (std::int64_t r = 0; r < rows; ++r) {
        float top = 0;
        for (std::int64_t c = 0; c < cols; ++c) top = std::max(top, std::fabs(data[r * cols + c]));
        const float scale = top > 0 && std::isfinite(top) ? top / 127.0f : 1.0f;
        scales[std::size_t(r)] = scale;
        for (std::int64_t c = 0; c < cols; ++c) {
            const float v = std::nearbyint(data[r * cols + c] / scale);
            q[std::size_t(r * cols + c)] = static_cast<std::int8_t>(std::clamp(v, -127.0f, 127.0f));
        }
    }
    const std::string full = name + "." + local;
    const std::string qName = b.int8s(full + "_quantized", w.shape().dims(), q);
    const std::string scaleName = b.floats(full + "_scale", {rows}, scales);
    const std::string zeroName = b.int8s(full + "_zero_point", {rows}, std::vector<std::int8_t>(std::size_t(rows), 0));
    const std::string result = b.fresh(full);
    b.node("DequantizeLinear", {qName, scaleName, zeroName}, {result}, name + "/dequantize_" + local,
           {{"axis", std::int64_t{0}}});
    ++quantized;
    return result;
}

}  // namespace ts
