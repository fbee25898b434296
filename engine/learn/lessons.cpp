#include "learn/lessons.h"

#include <exception>

#include "io/yaml/shipped_experiments.h"

namespace ts {

const std::vector<Lesson>& lessonCatalog()
{
    static const std::vector<Lesson> lessons = {
        {"look_at_data", "lessons/look_at_data.yaml", {"data_leakage", "label_noise", "class_imbalance"}, checkLookAtData},
        {"overfit_one_batch", "lessons/overfit_one_batch.yaml", {"overfit_one_batch", "not_converging"}, checkOverfitOneBatch},
        {"find_learning_rate", "lessons/find_learning_rate.yaml", {"learning_rate", "lr_finder"}, checkFindLearningRate},
        {"beat_the_mlp", "lessons/beat_the_mlp.yaml", {"initialisation", "batch_norm", "overfitting"}, checkBeatTheMlp},
        {"fix_imbalance", "lessons/fix_imbalance.yaml", {"class_imbalance", "classification_metrics"}, checkFixImbalance},
        {"fit_larger_batch", "lessons/fit_larger_batch.yaml", {"batch_size", "gradient_accumulation", "activation_checkpointing", "mixed_precision", "memory_accounting"}, checkFitLargerBatch},
        {"resume_exactly", "lessons/resume_exactly.yaml", {"checkpoints", "seeds_reproducibility"}, checkResumeExactly},
        {"compare_three_seeds", "lessons/compare_three_seeds.yaml", {"seeds_reproducibility", "validation_split"}, checkThreeSeeds},
        {"calibrate", "lessons/calibrate.yaml", {"calibration"}, checkCalibrate},
        {"export_onnx", "lessons/export_onnx.yaml", {"onnx_export", "quantization"}, checkExportOnnx},
        {"attention_step_by_step", "lessons/attention_step_by_step.yaml",
         {"attention", "query_key_value", "attention_head", "transformer_block", "layer_norm", "residual_connection", "patch", "vit",
          "positional_encoding"},
         checkAttentionStepByStep},
        {"why_transformers_warm_up", "lessons/why_transformers_warm_up.yaml", {"warmup", "self_attention", "token", "embedding"}, checkWhyWarmUp},
        {"make_it_write", "lessons/make_it_write.yaml",
         {"tokenizer", "context_length", "causal_mask", "perplexity", "bits_per_character"},
         checkMakeItWrite},
    };
    return lessons;
}

const Lesson* findLesson(const std::string& id)
{
    for (const Lesson& lesson : lessonCatalog())
        if (lesson.id == id) return &lesson;
    return nullptr;
}

std::filesystem::path lessonExperimentPath(const Lesson& lesson)
{
    const std::filesystem::path dir = shippedExperimentsDirectory();
    return dir.empty() ? dir : dir / lesson.experimentFile;
}

LessonResult checkLesson(const Lesson& lesson, const LessonContext& context)
{
    try {
        return lesson.check(context);
    } catch (const std::exception& e) {  // an unreadable store, a run whose experiment no longer parses
        LessonResult r;
        r.headline = Message{std::string("the check could not read the workspace: ") + e.what()};
        return r;
    }
}

}  // namespace ts
