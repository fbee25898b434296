#include "store/database.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <thread>

#include <sys/statvfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/run_writer.h"
#include "tensor/format_bytes.h"

namespace ts::store {

namespace {

// "file:" URI of a path, with the characters a URI gives meaning to escaped.
std::string fileUri(const std::string& path)
{
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", static_cast<unsigned char>(c));
            uri += hex;
        } else {
            uri += c;
        }
    }
    return uri;
}

// The cause of a failure when it is the disk (full, failing), naming the workspace folder; ""
// otherwise (a read-only workspace is worded by writer_db.cpp). SQLite says "database or disk is
// full" on a write, but a bare "disk I/O error" where it grows or maps its -wal and -shm files
// (the first statement after opening): the OS error behind it and the free space tell which.
std::string diskCause(sqlite3* db, const std::string& path)
{
    if (!db) return {};
    const int primary = sqlite3_extended_errcode(db) & 0xff;
    if (primary != SQLITE_FULL && primary != SQLITE_IOERR) return {};
    const int system = sqlite3_system_errno(db);
    const std::string parent = std::filesystem::path(path).parent_path().string();
    const std::string folder = parent.empty() ? "." : parent;
    struct statvfs fs {};
    const bool known = ::statvfs(folder.c_str(), &fs) == 0;
    const double free = known ? double(fs.f_bavail) * double(fs.f_frsize) : 0;
    const std::string space = known ? formatBytes(free) : std::string("unknown");
    const bool diskFull = system == ENOSPC || system == EDQUOT || (known && free < (1 << 20));
    if (diskFull)
        return "the disk holding the workspace " + folder + " is full (" + space + " free): free some space there or use another workspace";
    if (primary == SQLITE_FULL)  // SQLite's limit on the file's pages, or space taken back meanwhile
        return "the database or the disk holding the workspace " + folder + " is full (" + space + " free there now)";
    return "the disk holding the workspace " + folder + " failed to read or write (" +
               (system ? std::strerror(system) : "an I/O error") + ")";
}

// "<what>: <SQLite's words>", led by the disk's cause when it is the disk.
std::string failureText(sqlite3* db, const std::string& path, const std::string& what)
{
    const std::string sqlite = what + ": " + (db ? sqlite3_errmsg(db) : "no connection");
    const std::string cause = diskCause(db, path);
    return cause.empty() ? sqlite : cause + " (" + sqlite + ")";
}

}  // namespace

bool readOnlyPlace(const std::string& path)
{
    const std::string folder = std::filesystem::path(path).parent_path().string();
    const std::string dir = folder.empty() ? "." : folder;
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) == 0 && (fs.f_flag & ST_RDONLY)) return true;
    if (::access(dir.c_str(), W_OK) != 0) return true;
    return ::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0;
}

Database::Database(const std::string& path, Mode mode) : path_(path)
{
    open(path, mode, false);
    if (mode != Mode::ReadOnly) return;
    // A WAL database in a folder this process cannot write (a read-only mount, a copied
    // workspace without permissions) cannot create its -shm file, and every read fails.
    // Nothing can write there either, so the file is read as immutable: no locks, no -shm.
    if (sqlite3_exec(db_, "PRAGMA schema_version", nullptr, nullptr, nullptr) == SQLITE_OK) return;
    const int code = sqlite3_errcode(db_) & 0xff;
    if ((code != SQLITE_CANTOPEN && code != SQLITE_READONLY) || !readOnlyPlace(path)) return;  // the first statement reports it
    sqlite3_close_v2(db_);
    db_ = nullptr;
    open(path, mode, true);
}

void Database::open(const std::string& path, Mode mode, bool immutable)
{
    int flags = SQLITE_OPEN_NOMUTEX;  // each connection is used by one thread at a time
    flags |= mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY
             : mode == Mode::ReadWrite ? SQLITE_OPEN_READWRITE
                                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    const std::string name = immutable ? fileUri(path) + "?immutable=1" : path;
    if (immutable) flags |= SQLITE_OPEN_URI;
    const int rc = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? failureText(db_, path, "cannot open the database") : "cannot open the database: " + std::string(sqlite3_errstr(rc));
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError(path + ": " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    // The CLI and the studio may write at once: wait for the other's batch, not fail.
    sqlite3_busy_timeout(db_, 5000);
}

Database::~Database()
{
    sqlite3_close_v2(db_);  // _v2: tolerates statements still alive during unwinding
}

void Database::fail(const std::string& what) const
{
    if (db_) failureCode_ = sqlite3_extended_errcode(db_);
    throw StoreError(path_ + ": " + failureText(db_, path_, what));
}

// 16 KiB pages: a full chunk of points spans two pages instead of six, so a chart's read
// follows fewer overflow links. Switching to WAL needs the file alone, and with two processes
// creating one workspace SQLite answers "database is locked" without calling the busy handler
// (it would deadlock), so the switch is retried for up to 5 s.
void Database::useWriteAheadLog()
{
    exec("PRAGMA page_size = 16384");
    for (int attempt = 0;; ++attempt) {
        try {
            Statement mode(*this, "PRAGMA journal_mode = WAL");
            if (!mode.step() || mode.text(0) != "wal") fail("cannot switch to WAL mode");
            return;
        } catch (const StoreError&) {
            if ((failureCode() & 0xff) != SQLITE_BUSY || attempt >= 100) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

void Database::exec(const std::string& sql)
{
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : sqlite3_errmsg(db_);
        failureCode_ = sqlite3_extended_errcode(db_);
        sqlite3_free(error);
        const std::string cause = diskCause(db_, path_);
        throw StoreError(path_ + ": " + (cause.empty() ? "" : cause + " (") + message + " (in: " + sql.substr(0, 80) + ")" +
                         (cause.empty() ? "" : ")"));
    }
}

std::int64_t Database::scalar(const std::string& sql)
{
    Statement s(*this, sql);
    return s.step() ? s.integer(0) : 0;
}

std::int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(db_); }
int Database::changes() const { return sqlite3_changes(db_); }
bool Database::inTransaction() const { return !sqlite3_get_autocommit(db_); }

Statement::Statement(Database& db, const std::string& sql) : db_(&db)
{
    if (sqlite3_prepare_v3(db.handle(), sql.c_str(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) != SQLITE_OK)
        db.fail("cannot prepare '" + sql.substr(0, 80) + "'");
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) { other.stmt_ = nullptr; }

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(stmt_);
        db_ = other.db_;
        stmt_ = other.stmt_;
        other.stmt_ = nullptr;
    }
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value)
{
    if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_->fail("bind");
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    const int rc = std::isfinite(value) ? sqlite3_bind_double(stmt_, index, value) : sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) db_->fail("bind");
    return *this;
}

Statement& Statement::bind(int index, const std::string& value)
{
    if (sqlite3_bind_text(stmt_, index, value.data(), int(value.size()), SQLITE_TRANSIENT) != SQLITE_OK) db_->fail("bind");
    return *this;
}

Statement& Statement::bindBlob(int index, const void* data, std::size_t bytes)
{
    if (sqlite3_bind_blob64(stmt_, index, data, bytes, SQLITE_STATIC) != SQLITE_OK) db_->fail("bind");
    return *this;
}

Statement& Statement::bindNull(int index)
{
    if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_->fail("bind");
    return *this;
}

Statement& Statement::bind(int index, std::optional<std::int64_t> value)
{
    return value ? bind(index, *value) : bindNull(index);
}

bool Statement::step()
{
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    const std::string sql = sqlite3_sql(stmt_);
    sqlite3_reset(stmt_);  // leaves the statement usable for the next batch
    db_->fail("cannot run '" + sql.substr(0, 60) + "'");
}

void Statement::run()
{
    while (step()) {
    }
    reset();
}

void Statement::reset()
{
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }
std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }
std::string Statement::text(int column) const
{
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return p ? std::string(p, std::size_t(sqlite3_column_bytes(stmt_, column))) : std::string();
}

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction()
{
    if (!done_ && db_.inTransaction()) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit()
{
    db_.exec("COMMIT");
    done_ = true;
}

double unixNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double fromNonfiniteCode(std::int64_t code)
{
    return code == 2 ? HUGE_VAL : code == 3 ? -HUGE_VAL : std::nan("");
}

void bindValue(Statement& s, int valueIndex, double v)
{
    s.bind(valueIndex, v);  // NULL when not finite
    s.bind(valueIndex + 1, nonfiniteCode(v));
}

double columnValue(const Statement& s, int column)
{
    if (!s.isNull(column)) return s.real(column);
    return s.isNull(column + 1) ? std::nan("") : fromNonfiniteCode(s.integer(column + 1));
}

}  // namespace ts::store
