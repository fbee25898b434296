// A file the user named (--output), written through the engine's one gate for such files
// (io/output_file.h); a followed symbolic link is said on stderr, so stdout stays the data.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

#include "io/output_file.h"

namespace ts::cli {

inline void sayOutputNote(const OutputPlan& plan)
{
    if (plan.note) std::fprintf(stderr, "note: %s\n", plan.note->text.c_str());
}

inline void writeUserFile(const std::string& path, std::string_view bytes) { sayOutputNote(writeOutputFile(path, bytes)); }

}  // namespace ts::cli
