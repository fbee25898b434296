#include "lesson_texts.h"

#include <QFile>
#include <QLocale>

namespace ts::ui {

namespace {

struct Words {
    const char* id;
    const char* title;
    const char* goal;
};

// In the catalog's order; the goals state the checks' thresholds (learn/lessons.h lesson_goals).
const Words kWords[] = {
    {"look_at_data", QT_TRANSLATE_NOOP("LessonTexts", "Look at your data"),
     QT_TRANSLATE_NOOP("LessonTexts", "Run the dataset's health check and mark at least one duplicate or mislabelled sample.")},
    {"overfit_one_batch", QT_TRANSLATE_NOOP("LessonTexts", "Overfit one batch first"),
     QT_TRANSLATE_NOOP("LessonTexts", "Train on one fixed batch until the training loss is below 0.1.")},
    {"find_learning_rate", QT_TRANSLATE_NOOP("LessonTexts", "Find a learning rate"),
     QT_TRANSLATE_NOOP("LessonTexts", "With a rate from the learning-rate finder, reach at most 0.8 times the validation loss of the shipped rate.")},
    {"beat_the_mlp", QT_TRANSLATE_NOOP("LessonTexts", "Beat the MLP with a CNN"),
     QT_TRANSLATE_NOOP("LessonTexts", "Draw a CNN on the Model page whose best validation accuracy is above the MLP's.")},
    {"fix_imbalance", QT_TRANSLATE_NOOP("LessonTexts", "Fix an imbalanced dataset"),
     QT_TRANSLATE_NOOP("LessonTexts", "Raise the macro F1 by at least 0.02 with the class-balanced or weighted sampler.")},
    {"fit_larger_batch", QT_TRANSLATE_NOOP("LessonTexts", "Fit a larger batch"),
     QT_TRANSLATE_NOOP("LessonTexts", "Train an effective batch 4 times larger within 1.1 times the planned memory.")},
    {"resume_exactly", QT_TRANSLATE_NOOP("LessonTexts", "Resume a killed run exactly"),
     QT_TRANSLATE_NOOP("LessonTexts", "Stop a run before its end, resume it from its checkpoint and let it finish.")},
    {"compare_three_seeds", QT_TRANSLATE_NOOP("LessonTexts", "Compare three seeds"),
     QT_TRANSLATE_NOOP("LessonTexts", "Train the same settings with three seeds and read the mean ± standard deviation.")},
    {"calibrate", QT_TRANSLATE_NOOP("LessonTexts", "Calibrate with temperature scaling"),
     QT_TRANSLATE_NOOP("LessonTexts", "Evaluate a run so that its fitted temperature lowers the calibration error (ECE).")},
    {"export_onnx", QT_TRANSLATE_NOOP("LessonTexts", "Export to ONNX"),
     QT_TRANSLATE_NOOP("LessonTexts", "Export a trained run as an ONNX file with a dynamic batch dimension.")},
    {"attention_step_by_step", QT_TRANSLATE_NOOP("LessonTexts", "Attention, step by step"),
     QT_TRANSLATE_NOOP("LessonTexts", "Draw a Transformer block into the Vision Transformer and reach 0.82 test accuracy.")},
    {"why_transformers_warm_up", QT_TRANSLATE_NOOP("LessonTexts", "Why Transformers warm up"),
     QT_TRANSLATE_NOOP("LessonTexts", "Train the same Transformer without and with learning-rate warm-up; the warmed-up run must end with the lower loss.")},
    {"make_it_write", QT_TRANSLATE_NOOP("LessonTexts", "Make it write"),
     QT_TRANSLATE_NOOP("LessonTexts", "Train the character-level GPT to 3.1 validation bits per character or lower, over at least two epochs of samples.")},
};

const Words* find(const std::string& id)
{
    for (const Words& w : kWords)
        if (id == w.id) return &w;
    return nullptr;
}

QString readResource(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

}  // namespace

QString LessonTexts::title(const std::string& lessonId)
{
    const Words* w = find(lessonId);
    return w ? tr(w->title) : QString::fromStdString(lessonId);
}

QString LessonTexts::goal(const std::string& lessonId)
{
    const Words* w = find(lessonId);
    return w ? tr(w->goal) : QString();
}

QString LessonTexts::language()
{
    return QLocale().language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

QString LessonTexts::body(const std::string& lessonId)
{
    const QString id = QString::fromStdString(lessonId);
    const QString text = readResource(QStringLiteral(":/lessons/%1/%2.html").arg(language(), id));
    return text.isEmpty() ? readResource(QStringLiteral(":/lessons/en/%1.html").arg(id)) : text;
}

}  // namespace ts::ui
