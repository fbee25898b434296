// Files written where a user said: export, runs export, eval/predict --output, slurm --output,
// the studio's Save As and its chart and canvas images all go through checkOutputPath and
// AtomicFile (or writeOutputFile, both at once), so one set of rules keeps a user's data safe:
//  - a workspace's own files are refused: studio.db and its -wal/-shm/-journal beside it, and
//    anything under the checkpoints/ folder of a workspace (a folder holding studio.db);
//  - only a regular file is replaced: a folder, device node, FIFO or socket is refused;
//  - a symbolic link is kept: its target is written (after the same checks) and the plan's
//    note says so;
//  - the bytes go to a temporary file beside the target, renamed over it only when complete,
//    so a full disk or a read-only folder leaves the old file as it was and says what failed,
//    with the space needed.
// Internal files (checkpoints, caches) use AtomicFile alone.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "types/message.h"

namespace ts {

// A refused or failed output file; its message() has an id the studio words in the user's language.
class OutputFileError : public MessageError {
public:
    using MessageError::MessageError;
};

// Where a user-named output will land.
struct OutputPlan {
    std::string path;             // as given
    std::string target;           // the regular file created or replaced: a symbolic link's final target
    std::optional<Message> note;  // for the user when target is not path (a link followed)
};

// Checks `path` as an output the user named, touching nothing; throws OutputFileError naming
// the path, why it is refused and the way out.
OutputPlan checkOutputPath(const std::string& path);

// A file written whole or not at all: `target`.tmp, fsync'ed, renamed over `target` by
// commit() (the folder fsync'ed too); removed if commit() is never reached. A replaced file
// keeps its permissions. `expectedBytes` (0: unknown) is the size named when the disk is full.
class AtomicFile {
public:
    explicit AtomicFile(std::string target, std::uint64_t expectedBytes = 0);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();

    void write(const void* data, std::size_t bytes);
    void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
    void commit();
    std::uint64_t written() const { return written_; }

private:
    [[noreturn]] void fail(int error);

    std::string target_, temp_;
    std::uint64_t expected_ = 0, written_ = 0;
    int fd_ = -1;
    bool committed_ = false;
};

// checkOutputPath, then `bytes` through an AtomicFile. Returns the plan (show its note).
OutputPlan writeOutputFile(const std::string& path, std::string_view bytes);

}  // namespace ts
