// Internal to engine/store: the schema of studio.db, its version and the ordered migrations
// that bring any older database up to it in place.
//
// A database is ours when PRAGMA application_id is kApplicationId (or it is brand new: no
// tables, id 0). PRAGMA user_version is the schema version; migration N takes a database
// from version N-1 to N, inside one transaction, so a crash never leaves half a migration.
#pragma once
#include <cstdint>
#include <string>

namespace ts::store {

class Database;

constexpr std::int32_t kApplicationId = 0x54537464;  // "TStd"
constexpr int kSchemaVersion = 8;

// What a read-only look at the file found.
struct FileState {
    bool exists = false;  // false: no file, or a zero-byte one (nothing to protect)
    int version = 0;      // user_version; 0 for a new, empty database
};

// Checks, without modifying it, that `path` is absent, empty or a TrainStudio database of
// at most kSchemaVersion. Throws StoreError naming the file otherwise (not a SQLite file,
// another application's database, a newer schema).
FileState inspectDatabase(const std::string& path);

// Before writing: inspectDatabase, then PRAGMA quick_check where it is cheap (files up to
// kQuickCheckBytes). A damaged file is a StoreError saying so, with the exact commands that
// recover what SQLite can (the sqlite3 shell's .dump) and where the damaged files are kept;
// nothing is written to it.
constexpr std::int64_t kQuickCheckBytes = 256ll << 20;
FileState inspectDatabaseForWriting(const std::string& path);
// The message for a damaged database file (`detail`: what SQLite found; `version`: its schema).
std::string damagedDatabaseMessage(const std::string& path, std::string detail, int version);

// Brings an open read-write connection to `targetVersion` (default: current), running the
// missing migrations in order. Tests pass 1 to build an old database.
void migrate(Database& db, int targetVersion = kSchemaVersion);

}  // namespace ts::store
