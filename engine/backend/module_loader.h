// TrainStudio's run-time modules (the CUDA backend, the NCCL communicator): shared libraries
// opened with dlopen when first needed, so that NVIDIA's libraries are loaded only by the
// processes that use them (backend/cuda_module_api.h says why).
#pragma once
#include <string>

namespace ts {

struct OpenedModule {
    void* handle = nullptr;  // dlopen's; never closed (the module's objects live until exit)
    std::string path;        // where it was found
    std::string why;         // when handle is null: not found, or what dlopen said
};

// Looks for `fileName` in <the executable's folder>/../lib/trainstudio (the installed layout:
// /usr/bin and /usr/lib/trainstudio; tests/gpu's bundle copies it), then in the build's own
// module folder (for programs run from the build tree, tests included). `ownSymbolsFirst`: the
// module and its libraries bind to their own symbols before the program's (RTLD_DEEPBIND), for
// a library that carries its own copy of one the program links (SentencePiece's protobuf).
OpenedModule openModule(const std::string& fileName, bool ownSymbolsFirst = false);

}  // namespace ts
