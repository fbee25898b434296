#include "backend/module_loader.h"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>
#include <vector>

namespace ts {

namespace {

// AddressSanitizer refuses RTLD_DEEPBIND (its interceptors must come first): a sanitized build
// opens such a module with RTLD_LOCAL alone, and SentencePiece then refuses to load in a
// program that also links libprotobuf (the CLI, the studio) with protobuf's version message.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
constexpr bool kSanitized = false;
#endif

std::vector<std::filesystem::path> moduleFolders()
{
    std::vector<std::filesystem::path> folders;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) folders.push_back(exe.parent_path().parent_path() / "lib" / "trainstudio");
#ifdef TS_MODULE_BUILD_DIR
    folders.emplace_back(TS_MODULE_BUILD_DIR);
#endif
    return folders;
}

}  // namespace

OpenedModule openModule(const std::string& fileName, bool ownSymbolsFirst)
{
    OpenedModule m;
    std::string looked;
    for (const std::filesystem::path& folder : moduleFolders()) {
        const std::filesystem::path candidate = folder / fileName;
        std::error_code ec;
        if (!std::filesystem::exists(candidate, ec)) {
            looked += (looked.empty() ? "" : " or ") + folder.lexically_normal().string();
            continue;
        }
        m.path = candidate.lexically_normal().string();
        // RTLD_LOCAL: its symbols (its own copies of engine code among them) stay its own.
        m.handle = dlopen(m.path.c_str(), RTLD_NOW | RTLD_LOCAL | (ownSymbolsFirst && !kSanitized ? RTLD_DEEPBIND : 0));
        if (!m.handle) {
            const char* error = dlerror();
            m.why = error ? error : "dlopen failed on " + m.path;
        }
        return m;
    }
    m.why = "no " + fileName + " in " + looked;
    return m;
}

}  // namespace ts
