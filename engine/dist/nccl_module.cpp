// The engine's side of the NCCL module (dist/nccl_communicator.h): opened when a run on
// several GPUs starts, never before.
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#include "backend/module_loader.h"
#include "dist/nccl_communicator.h"

namespace ts {

std::unique_ptr<Communicator> loadNcclCommunicator(Communicator& host)
{
    static const NcclModuleApi* api = nullptr;  // the first caller loads it (processCommunicator holds a lock)
    if (!api) {
        const OpenedModule opened = openModule(kNcclModuleFile);
        if (!opened.handle) throw std::runtime_error("the NCCL communicator cannot be loaded (" + opened.why + ")");
        using Entry = const NcclModuleApi* (*)();
        const auto entry = reinterpret_cast<Entry>(dlsym(opened.handle, kNcclModuleEntry));
        const NcclModuleApi* found = entry ? entry() : nullptr;
        if (!found || found->abi != kNcclModuleAbi || std::string(found->version) != TS_VERSION)
            throw std::runtime_error("the NCCL communicator at " + opened.path + " is from another build of TrainStudio (this is " +
                                     TS_VERSION + ")");
        api = found;
    }
    return api->create(host);
}

}  // namespace ts
