#include "store/lesson_progress.h"

#include <optional>

#include "store/database.h"
#include "store/message_columns.h"
#include "store/run_writer.h"
#include "store/schema.h"
#include "store/writer_db.h"

namespace ts {

using namespace store;

namespace {

constexpr int kLessonSchema = 7;

void ensureRow(Database& db, const std::string& lessonId)
{
    Statement s(db, "INSERT OR IGNORE INTO lesson_progress (lesson_id) VALUES (?1)");
    s.bind(1, lessonId);
    s.run();
}

}  // namespace

std::vector<LessonProgress> readLessonProgress(const Workspace& workspace)
{
    std::vector<LessonProgress> out;
    const FileState state = inspectDatabase(workspace.databasePath());  // refuses what is not ours
    if (!state.exists || state.version < kLessonSchema) return out;
    Database db(workspace.databasePath(), Database::Mode::ReadOnly);
    Statement s(db, "SELECT lesson_id, started, passed, checked, last_passed, message, message_id, message_args "
                    "FROM lesson_progress ORDER BY lesson_id");
    while (s.step()) {
        LessonProgress p;
        p.lessonId = s.text(0);
        p.started = s.real(1);
        p.passed = s.real(2);
        p.checked = s.real(3);
        p.lastPassed = s.integer(4) != 0;
        p.lastResult = Message{s.text(5), s.text(6), decodeMessageArgs(s.text(7))};
        out.push_back(std::move(p));
    }
    return out;
}

void markLessonStarted(const Workspace& workspace, const std::string& lessonId)
{
    WriterDb writer(workspace.databasePath());
    Transaction tx(writer.db());
    ensureRow(writer.db(), lessonId);
    Statement s(writer.db(), "UPDATE lesson_progress SET started = ?2 WHERE lesson_id = ?1 AND started = 0");
    s.bind(1, lessonId).bind(2, unixNow());
    s.run();
    tx.commit();
}

void recordLessonCheck(const Workspace& workspace, const std::string& lessonId, bool passed, const Message& headline)
{
    WriterDb writer(workspace.databasePath());
    Transaction tx(writer.db());
    ensureRow(writer.db(), lessonId);
    const double now = unixNow();
    Statement s(writer.db(), "UPDATE lesson_progress SET checked = ?2, last_passed = ?3, message = ?4, message_id = ?5, "
                             "message_args = ?6, passed = CASE WHEN ?3 = 1 AND passed = 0 THEN ?2 ELSE passed END, "
                             "started = CASE WHEN started = 0 THEN ?2 ELSE started END WHERE lesson_id = ?1");
    s.bind(1, lessonId).bind(2, now).bind(3, std::int64_t(passed ? 1 : 0)).bind(4, headline.text).bind(5, headline.id);
    s.bind(6, encodeMessageArgs(headline.args));
    s.run();
    tx.commit();
}

}  // namespace ts
