// The Learn page's lessons (issue 19): each a goal reached with the learner's own runs, and an
// automatic check that reads the workspace's store and says passed or not yet, with the numbers
// it saw. The lesson texts, titles and goals are the front end's (they are translated there); the
// engine keeps what a check needs: the starting experiment (shipped in experiments/lessons/) and
// the thresholds, which the texts state.
//
// A lesson's runs are the runs of its starting experiment's `name:` (editing the experiment on
// any page keeps the name), so checks never mix lessons. Checks only read (the dataset catalog's
// connection may upgrade an older studio.db, as every writer does); they may run on any thread
// (connections of their own).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "store/workspace.h"
#include "types/experiment_spec.h"
#include "types/message.h"

namespace ts {

struct LessonResult {
    bool passed = false;
    Message headline;             // "Your CNN, run 4, reached test_acc 0.871, above the MLP's 0.862 (run 2)."
    std::vector<Message> details; // further lines (the resume's comparison with an uninterrupted run)
};

struct LessonContext {
    Workspace workspace;
    ExperimentSpec starting;  // the lesson's starting experiment as shipped (tests: on tiny data)
};

using LessonCheck = LessonResult (*)(const LessonContext&);

struct Lesson {
    std::string id;                     // "overfit_one_batch": settings, progress rows, text files
    std::string experimentFile;         // relative to the shipped experiments folder
    std::vector<std::string> glossary;  // glossary entry ids the lesson's text relies on
    LessonCheck check = nullptr;
};

// In teaching order.
const std::vector<Lesson>& lessonCatalog();
const Lesson* findLesson(const std::string& id);

// <shipped experiments>/<experimentFile>; empty when the shipped folder is not found.
std::filesystem::path lessonExperimentPath(const Lesson& lesson);

// The lesson's check; never throws: a store it cannot read is a not-yet with the reason.
LessonResult checkLesson(const Lesson& lesson, const LessonContext& context);

// The thresholds the checks use (and the lesson texts quote).
namespace lesson_goals {
constexpr double kOverfitLoss = 0.1;         // overfit_one_batch: final training loss below this
constexpr double kLearningRateLoss = 0.8;    // find_learning_rate: loss at most this x the shipped rate's
constexpr double kImbalanceF1Gain = 0.02;    // fix_imbalance: macro F1 up by at least this
constexpr int kBatchFactor = 4;              // fit_larger_batch: effective batch 4x the shipped one...
constexpr double kBatchBudget = 1.1;         // ...planning at most 1.1x the shipped experiment's memory
constexpr int kSeeds = 3;                    // compare_three_seeds
constexpr double kVitAccuracy = 0.82;        // attention_step_by_step: a ViT's test accuracy at least this
constexpr int kWarmupSuggestedSteps = 50;    // why_transformers_warm_up: the warm-up the not-yet suggests
constexpr double kWritingBpc = 3.1;          // make_it_write: validation bits per character at most this...
constexpr int kSampleEpochs = 2;             // ...with samples written after at least this many epochs
}  // namespace lesson_goals

// The checks, one per lesson (learn/lesson_checks_*.cpp).
LessonResult checkLookAtData(const LessonContext& context);
LessonResult checkOverfitOneBatch(const LessonContext& context);
LessonResult checkFindLearningRate(const LessonContext& context);
LessonResult checkBeatTheMlp(const LessonContext& context);
LessonResult checkFixImbalance(const LessonContext& context);
LessonResult checkFitLargerBatch(const LessonContext& context);
LessonResult checkResumeExactly(const LessonContext& context);
LessonResult checkThreeSeeds(const LessonContext& context);
LessonResult checkCalibrate(const LessonContext& context);
LessonResult checkExportOnnx(const LessonContext& context);
LessonResult checkAttentionStepByStep(const LessonContext& context);
LessonResult checkWhyWarmUp(const LessonContext& context);
LessonResult checkMakeItWrite(const LessonContext& context);

}  // namespace ts
