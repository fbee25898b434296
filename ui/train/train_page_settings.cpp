// What the Train page remembers between sessions (QSettings): the experiment chosen, the
// fields as edited for it, and the experiments opened or trained (Open Recent).
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QSettings>
#include <QSpinBox>

#include "train_page.h"

namespace ts::ui {

namespace {
const QString kRecentKey = QStringLiteral("train/recentExperiments");
const QString kEditsKey = QStringLiteral("train/edits");  // {file, epochs, batch_size, lr, ...}
constexpr int kMaxRecent = 8;

void selectData(QComboBox* box, const QVariant& data)
{
    if (const int i = box->findData(data); i >= 0) box->setCurrentIndex(i);
}
}  // namespace

void TrainPage::rememberRecent(const QString& file)
{
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(file);
    recent.prepend(file);
    settings.setValue(kRecentKey, recent.mid(0, kMaxRecent));
}

QStringList TrainPage::recentExperiments()
{
    QStringList files;
    for (const QString& file : QSettings().value(kRecentKey).toStringList())
        if (QFileInfo::exists(file)) files << file;
    return files;
}

void TrainPage::saveEdits() const
{
    if (m_restoring || !m_spec) return;  // nothing of a file that did not load
    QVariantMap edits;
    edits[QStringLiteral("file")] = m_experiment->currentData();
    edits[QStringLiteral("device")] = m_device->currentData();
    edits[QStringLiteral("threads")] = m_threads->value();
    edits[QStringLiteral("epochs")] = m_epochs->value();
    edits[QStringLiteral("batch_size")] = m_batchSize->value();
    edits[QStringLiteral("lr")] = m_lr->value();
    edits[QStringLiteral("optimizer")] = m_optimizer->currentData();
    edits[QStringLiteral("schedule")] = m_schedule->currentData();
    edits[QStringLiteral("precision")] = m_precision->currentData();
    QSettings().setValue(kEditsKey, edits);
}

QString TrainPage::rememberedExperiment() { return QSettings().value(kEditsKey).toMap().value(QStringLiteral("file")).toString(); }

void TrainPage::restoreEdits()
{
    const QVariantMap edits = QSettings().value(kEditsKey).toMap();
    if (!m_spec || edits.value(QStringLiteral("file")) != m_experiment->currentData()) return;
    m_restoring = true;
    selectData(m_device, edits.value(QStringLiteral("device")));
    m_threads->setValue(edits.value(QStringLiteral("threads"), m_threads->value()).toInt());
    m_epochs->setValue(edits.value(QStringLiteral("epochs"), m_epochs->value()).toInt());
    m_batchSize->setValue(edits.value(QStringLiteral("batch_size"), m_batchSize->value()).toInt());
    m_lr->setValue(edits.value(QStringLiteral("lr"), m_lr->value()).toDouble());
    selectData(m_optimizer, edits.value(QStringLiteral("optimizer")));
    selectData(m_schedule, edits.value(QStringLiteral("schedule")));
    selectData(m_precision, edits.value(QStringLiteral("precision")));
    m_restoring = false;
    updateMemoryEstimate();
    announceExperiment();
}

}  // namespace ts::ui
