// Fuzz inputs as files: the readers under test take paths, so each input is written to a
// private folder in /dev/shm (memory, no disk wear at thousands of runs a second) and read
// from there. The folder is per process, so parallel fuzzers do not share files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace ts::fuzz {

inline const std::string& scratchDir()
{
    static const std::string dir = [] {
        const std::filesystem::path base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
        const std::filesystem::path d = base / ("ts-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        static const std::string path = d.string();
        std::atexit([] {  // libFuzzer ends with exit(): no folder left behind per run
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        });
        return path;
    }();
    return dir;
}

// `bytes` as scratchDir()/name; returns the path.
inline std::string writeInput(const std::string& name, const void* bytes, std::size_t size)
{
    const std::string path = scratchDir() + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + path);
    if (size && std::fwrite(bytes, 1, size, f) != size) {
        std::fclose(f);
        throw std::runtime_error("cannot write " + path);
    }
    std::fclose(f);
    return path;
}

// The part of the input before the first "\n--\n" and the part after it (the whole input and
// an empty part when there is none): two files from one input, e.g. IDX images and labels.
struct TwoParts {
    std::string first, second;
};
inline TwoParts splitInput(const std::uint8_t* data, std::size_t size)
{
    const std::string all(reinterpret_cast<const char*>(data), size);
    const std::size_t at = all.find("\n--\n");
    if (at == std::string::npos) return {all, {}};
    return {all.substr(0, at), all.substr(at + 4)};
}

}  // namespace ts::fuzz
