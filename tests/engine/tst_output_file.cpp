// The one gate for files written where a user said (io/output_file.h): a workspace's own
// files and anything that is not a regular file are refused with the path and why; symbolic
// links keep their place; a write that fails (a full disk, a read-only file system) leaves
// the old file as it was. Real files, folders, FIFOs, sockets and (as root) small tmpfs mounts.
#include <QtTest>

#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/output_file.h"

using namespace ts;
namespace fs = std::filesystem;

namespace {

std::string readAll(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

// The id of the refusal `write` raises; empty when it raises none.
template <typename F>
std::string refusal(F write, std::string* text = nullptr)
{
    try {
        write();
    } catch (const OutputFileError& e) {
        if (text) *text = e.what();
        return e.message().id;
    }
    return {};
}

// A tmpfs of `bytes` at `at`, unmounted when it goes; empty when mounting is not allowed here.
struct SmallDisk {
    SmallDisk(const fs::path& at, const char* options) : path(at)
    {
        fs::create_directories(at);
        mounted = ::geteuid() == 0 && ::mount("tmpfs", at.c_str(), "tmpfs", 0, options) == 0;
    }
    ~SmallDisk()
    {
        if (mounted) ::umount(path.c_str());
    }
    fs::path path;
    bool mounted = false;
};

}  // namespace

class TestOutputFile : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    fs::path root() const { return dir_.path().toStdString(); }

    // A workspace as the store lays it out: studio.db, its WAL files, checkpoints/run_1/.
    fs::path makeWorkspace(const std::string& name)
    {
        const fs::path ws = root() / name;
        fs::create_directories(ws / "checkpoints" / "run_1");
        put(ws / "studio.db", "SQLite format 3");
        put(ws / "studio.db-wal", "wal");
        put(ws / "studio.db-shm", "shm");
        put(ws / "checkpoints" / "run_1" / "epoch_001.safetensors", "weights");
        return ws;
    }

private slots:
    void writesNewAndReplacesRegularFiles()
    {
        const fs::path out = root() / "new.csv";
        const OutputPlan plan = writeOutputFile(out, "a,b\n");
        QCOMPARE(readAll(out), std::string("a,b\n"));
        QVERIFY(!plan.note);
        QCOMPARE(plan.target, out.string());
        // Replacing keeps the old file's permissions and leaves no temporary file behind.
        ::chmod(out.c_str(), 0750);
        writeOutputFile(out, "c\n");
        QCOMPARE(readAll(out), std::string("c\n"));
        struct stat st {};
        QCOMPARE(::stat(out.c_str(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0750);
        QVERIFY(!fs::exists(out.string() + ".tmp"));
    }

    // Each of a workspace's own files, reached directly, through "..", and through a link.
    void refusesWorkspaceFiles()
    {
        const fs::path ws = makeWorkspace("ws");
        fs::create_directories(root() / "elsewhere");
        fs::create_symlink(ws / "studio.db", root() / "elsewhere" / "innocent.onnx");
        fs::create_symlink(ws / "checkpoints", root() / "elsewhere" / "ck");
        const std::vector<std::pair<fs::path, std::string>> cases = {
            {ws / "studio.db", "output.workspace_database"},
            {ws / "studio.db-wal", "output.workspace_database"},
            {ws / "studio.db-shm", "output.workspace_database"},
            {ws / "studio.db-journal", "output.workspace_database"},
            {ws / "checkpoints" / ".." / "studio.db", "output.workspace_database"},
            {ws / "checkpoints" / "run_1" / "epoch_001.safetensors", "output.workspace_checkpoints"},
            {ws / "checkpoints" / "run_1" / "new.csv", "output.workspace_checkpoints"},
            {ws / "checkpoints" / "x.csv", "output.workspace_checkpoints"},
            {root() / "elsewhere" / "innocent.onnx", "output.workspace_database"},
            {root() / "elsewhere" / "ck" / "run_1" / "epoch_001.safetensors", "output.workspace_checkpoints"},
        };
        for (const auto& c : cases) {  // not a structured binding: clang cannot capture one under OpenMP
            std::string text;
            QCOMPARE(refusal([&] { writeOutputFile(c.first, "garbage"); }, &text), c.second);
            QVERIFY2(text.find(c.first.string()) != std::string::npos, text.c_str());
        }
        QCOMPARE(readAll(ws / "studio.db"), std::string("SQLite format 3"));
        QCOMPARE(readAll(ws / "checkpoints" / "run_1" / "epoch_001.safetensors"), std::string("weights"));
        QVERIFY(!fs::exists(ws / "checkpoints" / "run_1" / "new.csv"));
        // Beside the workspace, other files are fine; a studio.db with no workspace is just a name.
        writeOutputFile(ws / "results.csv", "ok");
        fs::create_directories(root() / "plain");
        writeOutputFile(root() / "plain" / "studio.db", "not a workspace yet");
    }

    void refusesWhatIsNotARegularFile()
    {
        fs::create_directories(root() / "folder");
        const fs::path fifo = root() / "pipe";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const fs::path socketPath = root() / "sock";
        const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::snprintf(address.sun_path, sizeof address.sun_path, "%s", socketPath.c_str());
        QCOMPARE(::bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        fs::create_symlink("/dev/null", root() / "null_link");
        const std::vector<std::pair<fs::path, std::string>> cases = {
            {root() / "folder", "output.is_folder"},
            {"/dev/null", "output.is_device"},
            {root() / "null_link", "output.is_device"},
            {fifo, "output.is_fifo"},
            {socketPath, "output.is_socket"},
            {root() / "missing" / "x.csv", "output.no_folder"},
            {root() / "folder" / "a" / "b.csv", "output.no_folder"},
            {"", "output.no_name"},
        };
        for (const auto& c : cases) QCOMPARE(refusal([&] { writeOutputFile(c.first, "x"); }), c.second);
        ::close(s);
        struct stat st {};
        QCOMPARE(::stat("/dev/null", &st), 0);
        QVERIFY(S_ISCHR(st.st_mode));  // still the device
        QVERIFY(fs::is_fifo(fifo));
        // A path through a regular file as if it were a folder.
        put(root() / "file", "x");
        QCOMPARE(refusal([&] { writeOutputFile(root() / "file" / "x.csv", "x"); }), std::string("output.no_folder"));
    }

    // The link stays a link; its target gets the bytes; the plan says so. A chain and a
    // relative link too; a loop is refused.
    void followsSymbolicLinks()
    {
        fs::create_directories(root() / "links" / "real");
        put(root() / "links" / "real" / "data.csv", "old");
        fs::create_symlink("real/data.csv", root() / "links" / "one");
        fs::create_symlink(root() / "links" / "one", root() / "links" / "two");
        const OutputPlan plan = writeOutputFile(root() / "links" / "two", "new");
        QVERIFY(fs::is_symlink(root() / "links" / "two"));
        QVERIFY(fs::is_symlink(root() / "links" / "one"));
        QCOMPARE(readAll(root() / "links" / "real" / "data.csv"), std::string("new"));
        QVERIFY(plan.note);
        QCOMPARE(plan.note->id, std::string("output.followed_link"));
        QVERIFY(plan.note->text.find("real/data.csv") != std::string::npos);
        // A link to a file still to be made creates it where the link points.
        fs::create_symlink("real/later.csv", root() / "links" / "dangling");
        writeOutputFile(root() / "links" / "dangling", "made");
        QCOMPARE(readAll(root() / "links" / "real" / "later.csv"), std::string("made"));
        fs::create_symlink("loop_b", root() / "links" / "loop_a");
        fs::create_symlink("loop_a", root() / "links" / "loop_b");
        QCOMPARE(refusal([&] { writeOutputFile(root() / "links" / "loop_a", "x"); }), std::string("output.write_failed"));
    }

    // A real full disk: the old file stays whole, the message names the path and the sizes,
    // and no temporary file is left.
    void fullDiskKeepsTheOldFile()
    {
        SmallDisk disk(root() / "small", "size=64k");
        if (!disk.mounted) QSKIP("mounting a tmpfs needs root and a mount namespace that allows it");
        const fs::path out = disk.path / "model.onnx";
        put(out, "previous model");
        std::string text;
        QCOMPARE(refusal([&] { writeOutputFile(out, std::string(1 << 20, 'x')); }, &text), std::string("output.disk_full"));
        QVERIFY2(text.find(out.string()) != std::string::npos, text.c_str());
        QVERIFY2(text.find("1.0 MiB to write") != std::string::npos, text.c_str());
        QCOMPARE(readAll(out), std::string("previous model"));
        QCOMPARE(std::distance(fs::directory_iterator(disk.path), fs::directory_iterator()), 1);
        // A streamed write of unknown size says at least what it had to write.
        QCOMPARE(refusal([&] {
                     AtomicFile file(out.string());
                     for (int i = 0; i < 64; ++i) file.write(std::string(16 << 10, 'y'));
                     file.commit();
                 }),
                 std::string("output.disk_full"));
        QCOMPARE(readAll(out), std::string("previous model"));
    }

    void readOnlyFileSystemKeepsTheOldFile()
    {
        SmallDisk disk(root() / "ro", "size=64k");
        if (!disk.mounted) QSKIP("mounting a tmpfs needs root and a mount namespace that allows it");
        const fs::path out = disk.path / "a.csv";
        put(out, "old");
        QCOMPARE(::mount("tmpfs", disk.path.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, "size=64k"), 0);
        std::string text;
        QCOMPARE(refusal([&] { writeOutputFile(out, "new"); }, &text), std::string("output.write_failed"));
        QVERIFY2(text.find("Read-only file system") != std::string::npos, text.c_str());
        QCOMPARE(readAll(out), std::string("old"));
    }
};

QTEST_GUILESS_MAIN(TestOutputFile)
#include "tst_output_file.moc"
