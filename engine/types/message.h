// A message a user reads (a log line, how a run ended) in a form every front end can word in
// its own language, since the engine knows no Qt and no translations: a stable id, its
// arguments already formatted (numbers, sizes "83.4 MiB", paths), and the English text that
// the CLI prints and the store keeps. The English templates are one table (message.cpp);
// the studio has its own table of translatable templates by id (ui/engine_messages.cpp).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ts {

// Text first, so Message{text} is a message without an id (an exception's what()), which
// every front end shows as it is.
struct Message {
    std::string text;               // English
    std::string id;                 // "train.paused"; empty: text only
    std::vector<std::string> args;  // %1, %2, ... of the id's template, in order

    bool operator==(const Message&) const = default;
};

// Every message the engine words itself. The table in message.cpp gives each its stable id
// and English template; a new value needs a row there (and a template in the studio).
enum class MessageId {
    BackendAutoCpu,
    BackendAutoCpuEvaluate,
    BackendAutoCpuPredict,
    JobResumingRun,
    JobForkingRun,
    JobResumingFile,
    JobForkingFile,
    JobLoadingData,
    JobStoppedBeforeStart,
    JobSaveFailed,
    JobResumeFallback,
    EvalNoBestCheckpoint,
    EvalStarted,
    EvalStopped,
    EvalFinished,
    EvalFinishedRegression,
    LrFindTooFewSteps,
    LrFindFinished,
    LrFindFinishedDiverged,
    LrFindRulesDisagree,
    // The Model page's one-step memory check (jobs/step_probe_job.cpp).
    ProbeFindingBatch,
    ProbeRunningStep,
    ProbeRan,
    ProbeStopped,
    MemoryBreakdown,
    TrainMemoryPlanned,
    // A pass the backend lacks a primitive for, run on the CPU (exec/cpu_fallback.h).
    TrainCpuForward,
    TrainCpuBackward,
    TrainCpuThreadsAuto,
    TrainCpuThreadsFixed,
    TrainCpuThreadsChanged,
    TrainOverfitMode,
    TrainOverfitModeFewer,
    TrainTextSample,
    TrainMetricMissingOverfit,
    TrainMetricMissingNoValidation,
    TrainOverfitLearns,
    TrainOverfitStuck,
    TrainStopped,
    TrainStoppedInEvaluation,
    TrainEarlyStopped,
    TrainFinished,
    TrainOptimizerStateReset,
    TrainForkBatchChanged,
    TrainResumedFrom,
    TrainForkedFrom,
    TrainNothingLeft,
    TrainPaused,
    TrainResumed,
    TrainSkippedNanLoss,
    TrainSkippedInfiniteLoss,
    TrainSkippedNonFiniteGradient,
    TrainF16Overflow,
    TrainDivergedNanLoss,
    TrainDivergedInfiniteLoss,
    TrainDivergedNonFiniteGradient,
    OptimWeightDecayGroups,
    OptimWeightDecayAll,
    // The training diagnostics (train/diagnostics.h): each key is its rule's id.
    DiagNonFinite,
    DiagNotConverging,
    DiagLossRising,
    DiagLossOscillating,
    DiagGradientExploding,
    DiagGradientVanishing,
    DiagOverfitting,
    DiagLoaderStarving,
    DiagMemoryGrowing,
    DiagMemoryFragmented,
    DiagBatchNormSmallBatch,
    DiagBatchNormAfterDropout,
    DiagBatchNormAccumulation,
    DiagLossScaleFalling,
    DiagImbalancedAccuracy,
    DiagTransformerWarmup,
    RunStarted,
    RunStartedAccumulated,
    RunEpochDone,
    RunEpochDonePaused,
    RunCheckpointSaved,
    RunCheckpointSavedBest,
    RunFinished,
    RunStopped,
    RunStoppedEarly,
    RunFailed,
    RunCrashed,
    StoreWriteFailing,
    StoreWriteRecovered,
    SweepPlanned,
    SweepHalving,
    SweepTrialParameters,
    SweepTrialSkippedMemory,
    SweepTrialSkippedInvalid,
    SweepTrialTraining,
    SweepTrialResuming,
    SweepTrialReached,
    SweepTrialAlready,
    SweepTrialFailed,
    SweepRungKept,
    SweepBest,
    SweepMetricMissing,
    SweepStopped,
    SweepFinished,
    SweepNoResult,
    JobLabelOverlay,
    LabelCheckFold,
    LabelCheckStopped,
    LabelCheckFinished,
    LabelCheckProgressFold,
    LabelCheckProgressRanking,
    EvalProgress,
    DataCheckReading,
    DataCheckNear,
    DataCheckTable,
    DataCheckSummary,
    DataCheckSummaryImages,
    DataCheckReused,
    DataCheckStopped,
    ExportNoBestCheckpoint,
    ExportNoClassNames,
    ExportNoClassNamesNorNormalisation,
    PredictNoBestCheckpoint,
    PredictImageConverted,
    PredictFolderOthers,
    PredictLabelsFrom,
    // The Learn page's lesson checks (learn/lessons.h).
    LessonNoRuns,
    LessonDataNoCheck,
    LessonDataNoMark,
    LessonDataPassed,
    LessonOverfitNoRun,
    LessonOverfitPassed,
    LessonOverfitNotYet,
    LessonLrNoBaseline,
    LessonLrNoChange,
    LessonLrPassed,
    LessonLrNotYet,
    LessonCnnNoMlp,
    LessonCnnNoCnn,
    LessonCnnPassed,
    LessonCnnNotYet,
    LessonImbalanceNoBaseline,
    LessonImbalanceNoFix,
    LessonImbalancePassed,
    LessonImbalanceNotYet,
    LessonBatchPassed,
    LessonBatchNotYet,
    LessonResumeNoStop,
    LessonResumeNoResume,
    LessonResumePassed,
    LessonResumeSame,
    LessonResumeDiffers,
    LessonSeedsNotYet,
    LessonSeedsPassed,
    LessonCalibrateNoEval,
    LessonCalibratePassed,
    LessonCalibrateNotYet,
    // What was done with a run after it ended (jobs/onnx_export_run.h), and the lesson that reads it.
    ExportOnnxWritten,
    ExportNotLogged,
    LessonOnnxNotExported,
    LessonOnnxFileGone,
    LessonOnnxPassed,
    // The Transformer lessons (issue 40).
    LessonAttentionNoBlock,
    LessonAttentionPassed,
    LessonAttentionNotYet,
    LessonWarmupNoPlain,
    LessonWarmupNoWarm,
    LessonWarmupPassed,
    LessonWarmupPassedDiverged,
    LessonWarmupNotYet,
    LessonWriteNoSamples,
    LessonWritePassed,
    LessonWriteNotYet,
    // Files written where the user said (io/output_file.h).
    OutputNoName,
    OutputWorkspaceDatabase,
    OutputWorkspaceCheckpoints,
    OutputIsFolder,
    OutputIsDevice,
    OutputIsFifo,
    OutputIsSocket,
    OutputNoFolder,
    OutputWriteFailed,
    OutputDiskFull,
    OutputFollowedLink,
    TrainDataChanged,
    RunStaleFilesRemoved,
    DataImageShapeDefault,
    DataImagesResizedCrop,
    DataImagesResizedPad,
    DataImagesResizedStretch,
    DataTextsCut,
    DataTextsEmpty,
    Count
};

// An id's stable key and English template. In a template %1..%9 are the arguments, and
// {N:singular|plural} is the noun for the count in argument N ("%1 {1:epoch|epochs}").
struct MessageTemplate {
    MessageId id;
    const char* key;
    const char* english;
};
// Every template, in MessageId order.
const std::vector<MessageTemplate>& messageTemplates();

// The message `id` with `args` (as many as its template names), its English text filled in.
Message makeMessage(MessageId id, std::vector<std::string> args = {});

// `english` with its %N and {N:singular|plural} filled from `args` (a missing argument reads
// as empty; a count that is not an integer takes the plural).
std::string fillTemplate(const std::string& english, const std::vector<std::string>& args);

// A number as an argument, as std::ostream prints it (6 significant digits: 0.001, 1e+06).
std::string numberArg(double value);

// A failure whose message front ends can word in their own language: what() is its English.
class MessageError : public std::runtime_error {
public:
    explicit MessageError(Message message) : std::runtime_error(message.text), message_(std::move(message)) {}
    const Message& message() const { return message_; }

private:
    Message message_;
};

}  // namespace ts
