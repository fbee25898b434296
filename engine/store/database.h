// Internal to engine/store: a thin RAII layer over the SQLite C API. Every failure becomes a
// StoreError naming the database file and quoting sqlite3_errmsg, so callers never check codes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace ts::store {

class Database;

// A prepared statement, reused: bind, step until it returns false, reset (done by bind
// helpers' callers through reset()).
class Statement {
public:
    Statement() = default;
    Statement(Database& db, const std::string& sql);
    ~Statement();
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // 1-based parameter indices, as in SQLite.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, double value);  // non-finite values bind as NULL (callers flag them)
    Statement& bind(int index, const std::string& value);
    Statement& bindNull(int index);
    Statement& bindBlob(int index, const void* data, std::size_t bytes);  // not copied: keep it alive until step()
    Statement& bind(int index, std::optional<std::int64_t> value);

    // true: a row is ready; false: done. Throws StoreError.
    bool step();
    // step() for a statement that returns no rows, then reset.
    void run();
    void reset();  // also clears bindings

    // 0-based column indices.
    bool isNull(int column) const;
    std::int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;

    sqlite3_stmt* handle() const { return stmt_; }

private:
    Database* db_ = nullptr;
    sqlite3_stmt* stmt_ = nullptr;
};

class Database {
public:
    enum class Mode { ReadOnly, ReadWrite, ReadWriteCreate };
    Database(const std::string& path, Mode mode);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    void exec(const std::string& sql);
    // A writer's set-up: 16 KiB pages while the file is new, then WAL (readers never block the
    // writer). Waits, as the busy timeout does, for another process setting up the same file.
    void useWriteAheadLog();
    // The first column of the first row of `sql` as an integer (PRAGMAs, counts).
    std::int64_t scalar(const std::string& sql);
    std::int64_t lastInsertId() const;
    int changes() const;
    bool inTransaction() const;

    [[noreturn]] void fail(const std::string& what) const;  // StoreError: "<file>: <what>: <errmsg>"
    // The extended result code of the last failure thrown (fail, exec), kept past a rollback
    // (which resets SQLite's own); SQLITE_OK after clearFailureCode().
    int failureCode() const { return failureCode_; }
    void clearFailureCode() { failureCode_ = 0; }
    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }

private:
    void open(const std::string& path, Mode mode, bool immutable);

    std::string path_;
    sqlite3* db_ = nullptr;
    mutable int failureCode_ = 0;
};

// BEGIN IMMEDIATE (takes the write lock up front, so a busy database waits in
// busy_timeout instead of failing half-way); rolls back unless commit() was called.
class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    void commit();

private:
    Database& db_;
    bool done_ = false;
};

// Whether the database file at `path` cannot be written here: its file system is mounted
// read-only, or this process may not write its folder or the file.
bool readOnlyPlace(const std::string& path);

// Seconds since the Unix epoch (UTC), with sub-second precision.
double unixNow();

// SQLite stores a bound NaN as NULL, so a REAL column that may hold any double keeps a
// companion flag: NULL for a finite value, else 1 NaN, 2 +inf, 3 -inf (the REAL is NULL then).
inline std::optional<std::int64_t> nonfiniteCode(double v)
{
    if (v != v) return 1;
    if (v > 1.7976931348623157e308) return 2;
    if (v < -1.7976931348623157e308) return 3;
    return std::nullopt;
}
double fromNonfiniteCode(std::int64_t code);
// Binds v at `valueIndex` and its flag at `valueIndex + 1`.
void bindValue(Statement& s, int valueIndex, double v);
// Reads a value bound by bindValue from columns `column` and `column + 1`.
double columnValue(const Statement& s, int column);

}  // namespace ts::store
