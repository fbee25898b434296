#include "backend/select_backend.h"

#include <algorithm>
#include <stdexcept>

#include "backend/backend.h"
#include "backend/devices.h"
#include "tensor/quote_text.h"

namespace ts {

namespace {

// The N of "cuda:N" ("cuda" is device 0); anything else after the colon is an unknown name.
int cudaIndex(const std::string& device)
{
    if (device == "cuda") return 0;
    const std::string digits = device.substr(5);
    if (digits.empty() || digits.size() > 4 || !std::all_of(digits.begin(), digits.end(), [](char ch) {
            return ch >= '0' && ch <= '9';
        }))
        throw std::invalid_argument("unknown device " + quoteText(device) + " (expected auto, cpu, cuda or cuda:N)");
    return std::stoi(digits);
}

}  // namespace

Backend& selectBackend(const std::string& device, Message* notice, BackendPurpose purpose)
{
    if (device == "cpu") return cpuBackend();
    const bool wantsCuda = device == "cuda" || device.rfind("cuda:", 0) == 0;
    if (device != "auto" && !wantsCuda)
        throw std::invalid_argument("unknown device " + quoteText(device) + " (expected auto, cpu, cuda or cuda:N)");
    const int index = wantsCuda ? cudaIndex(device) : 0;

    const CudaRuntimeInfo cuda = queryCuda();
    const bool listed = std::any_of(cuda.devices.begin(), cuda.devices.end(),
                                    [&](const CudaDeviceInfo& d) { return d.index == index; });
    std::string why = cuda.reason;
    if (!cuda.devices.empty() && !listed)
        why = "no CUDA device " + std::to_string(index) + " (this machine has " + std::to_string(cuda.devices.size()) + ")";
    if (listed) {
        try {
            return cudaBackend(index);
        } catch (const std::runtime_error& e) {  // the device is there but cannot be opened
            why = e.what();
        }
    }
    if (wantsCuda) throw std::runtime_error("--device " + device + ": " + why + "; use --device cpu");
    const MessageId id = purpose == BackendPurpose::Evaluate  ? MessageId::BackendAutoCpuEvaluate
                         : purpose == BackendPurpose::Predict ? MessageId::BackendAutoCpuPredict
                                                              : MessageId::BackendAutoCpu;
    if (notice) *notice = makeMessage(id, {why});
    return cpuBackend();
}

}  // namespace ts
