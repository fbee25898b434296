#include "io/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "tensor/format_bytes.h"

namespace ts {

namespace fs = std::filesystem;

namespace {

using enum MessageId;

[[noreturn]] void refuse(MessageId id, std::vector<std::string> args) { throw OutputFileError(makeMessage(id, std::move(args))); }

bool isWorkspaceDatabaseName(const std::string& name)
{
    return name == "studio.db" || name == "studio.db-wal" || name == "studio.db-shm" || name == "studio.db-journal";
}

bool holdsWorkspace(const fs::path& folder)
{
    std::error_code ec;
    return fs::exists(folder / "studio.db", ec);
}

// Refuses `target` (absolute, its folder's links resolved) when it is part of a workspace.
void refuseWorkspaceFiles(const std::string& given, const fs::path& target)
{
    const fs::path folder = target.parent_path();
    if (isWorkspaceDatabaseName(target.filename().string()) && holdsWorkspace(folder))
        refuse(OutputWorkspaceDatabase, {given, folder.string()});
    for (fs::path f = folder; !f.empty(); f = f.parent_path()) {
        if (f.filename() == "checkpoints" && holdsWorkspace(f.parent_path()))
            refuse(OutputWorkspaceCheckpoints, {given, f.parent_path().string()});
        if (f == f.root_path()) break;
    }
}

// `link`'s target as a path usable from here (a relative target counts from the link's folder).
fs::path linkTarget(const fs::path& link)
{
    const fs::path to = fs::read_symlink(link);
    return to.is_absolute() ? to : link.parent_path() / to;
}

std::string freeSpace(const std::string& folder)
{
    struct statvfs vfs {};
    if (::statvfs(folder.c_str(), &vfs) != 0) return "unknown";
    // Root may use the reserved blocks too.
    const auto blocks = ::geteuid() == 0 ? vfs.f_bfree : vfs.f_bavail;
    return formatBytes(double(blocks) * double(vfs.f_frsize));
}

}  // namespace

OutputPlan checkOutputPath(const std::string& path)
{
    if (path.empty()) refuse(OutputNoName, {});
    OutputPlan plan{path, path, std::nullopt};
    fs::path at = path;
    struct stat st {};
    for (int links = 0;; ++links) {
        if (::lstat(at.c_str(), &st) != 0) {
            if (errno == ENOENT) break;  // a new file (or a link to one still to be made)
            if (errno == ENOTDIR) refuse(OutputNoFolder, {path, at.parent_path().string()});
            refuse(OutputWriteFailed, {path, std::strerror(errno)});
        }
        if (!S_ISLNK(st.st_mode)) break;
        if (links == 40) refuse(OutputWriteFailed, {path, std::strerror(ELOOP)});
        at = linkTarget(at);
    }
    const bool exists = ::lstat(at.c_str(), &st) == 0;
    if (exists) {
        if (S_ISDIR(st.st_mode)) refuse(OutputIsFolder, {path, (fs::path(path) / "output").string()});
        if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) refuse(OutputIsDevice, {path});
        if (S_ISFIFO(st.st_mode)) refuse(OutputIsFifo, {path});
        if (S_ISSOCK(st.st_mode)) refuse(OutputIsSocket, {path});
        if (!S_ISREG(st.st_mode)) refuse(OutputIsDevice, {path});
    }
    fs::path folder = at.parent_path().empty() ? fs::path(".") : at.parent_path();
    struct stat fst {};
    if (::stat(folder.c_str(), &fst) != 0 || !S_ISDIR(fst.st_mode)) refuse(OutputNoFolder, {path, folder.string()});

    std::error_code ec;
    const fs::path canonicalFolder = fs::canonical(folder, ec);
    if (!ec) refuseWorkspaceFiles(path, canonicalFolder / at.filename());

    plan.target = at.string();
    if (at != fs::path(path)) plan.note = makeMessage(OutputFollowedLink, {path, plan.target});
    return plan;
}

AtomicFile::AtomicFile(std::string target, std::uint64_t expectedBytes)
    : target_(std::move(target)), temp_(target_ + ".tmp"), expected_(expectedBytes)
{
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(errno);
    // A replaced file keeps its permissions (a script stays executable, a private file private).
    struct stat st {};
    if (::stat(target_.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::fchmod(fd_, st.st_mode & 07777);
}

AtomicFile::~AtomicFile()
{
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFile::fail(int error)
{
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    ::unlink(temp_.c_str());
    if (error == ENOSPC || error == EDQUOT) {
        const std::string folder = fs::path(target_).parent_path().empty() ? "." : fs::path(target_).parent_path().string();
        const std::uint64_t needed = std::max(expected_, written_);
        refuse(OutputDiskFull, {target_, formatBytes(double(needed)), freeSpace(folder)});
    }
    refuse(OutputWriteFailed, {target_, std::strerror(error)});
}

void AtomicFile::write(const void* data, std::size_t bytes)
{
    const char* p = static_cast<const char*>(data);
    while (bytes > 0) {  // write() may take less than asked (signals, huge requests)
        const ssize_t n = ::write(fd_, p, std::min<std::size_t>(bytes, 1 << 30));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            written_ += bytes;  // what was still to come, for the space named
            fail(n < 0 ? errno : EIO);
        }
        p += n, bytes -= std::size_t(n), written_ += std::uint64_t(n);
    }
}

void AtomicFile::commit()
{
    // The data must be on disk before the rename makes it the file: otherwise a crash can
    // leave a renamed but empty file where the previous one was.
    if (::fsync(fd_) != 0) fail(errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail(errno);  // NFS reports late errors here
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) fail(errno);
    committed_ = true;
    // Makes the rename itself durable. The new file is already in place, so a failure here
    // (some file systems refuse to sync a folder) is not a failed write.
    const std::string dir = fs::path(target_).parent_path().string();
    const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd);
        ::close(dfd);
    }
}

OutputPlan writeOutputFile(const std::string& path, std::string_view bytes)
{
    OutputPlan plan = checkOutputPath(path);
    AtomicFile file(plan.target, bytes.size());
    file.write(bytes);
    file.commit();
    return plan;
}

}  // namespace ts
