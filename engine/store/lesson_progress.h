// The Learn page's progress in a workspace's studio.db (schema 7: table lesson_progress): when a
// lesson was started (its starting experiment opened) and first passed, and what its last check
// said. Like the label overlay, each call opens its own short connection (a click at a time, never
// through the RunWriter's queue). Reading never creates or upgrades the database (a missing file
// or one older than schema 7 reads as no progress); writing upgrades it like the RunWriter.
// Failures throw StoreError (store/run_writer.h) naming the file.
#pragma once
#include <string>
#include <vector>

#include "store/workspace.h"
#include "types/message.h"

namespace ts {

struct LessonProgress {
    std::string lessonId;
    double started = 0;      // Unix seconds; 0: never started
    double passed = 0;       // the first check that passed; 0: not yet (a later failing check keeps it)
    double checked = 0;      // the last check; 0: never checked
    bool lastPassed = false;
    Message lastResult;      // the last check's headline
};

// Every lesson with a row, by id.
std::vector<LessonProgress> readLessonProgress(const Workspace& workspace);
// Sets `started` the first time; later calls keep it.
void markLessonStarted(const Workspace& workspace, const std::string& lessonId);
// The result of a check: `checked` and the headline always, `passed` the first time it passes.
void recordLessonCheck(const Workspace& workspace, const std::string& lessonId, bool passed, const Message& headline);

}  // namespace ts
