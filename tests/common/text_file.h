// Writes `text` to `path` byte for byte, making its folders: the text-data suites' fixtures.
#pragma once
#include <filesystem>
#include <fstream>
#include <string>

namespace ts::test {

inline void writeText(const std::string& path, const std::string& text)
{
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace ts::test
