#include "sample_gallery.h"

#include <QListView>
#include <QVBoxLayout>

#include <algorithm>

#include "image_grid.h"
#include "store/label_overlay.h"
#include "store/run_reader.h"

namespace ts::ui {

SampleGallery::SampleGallery(QWidget* parent) : QWidget(parent)
{
    m_model = new EvaluationSamples(this);
    m_grid = new widgets::ImageGrid;
    m_grid->setObjectName(QStringLiteral("sampleGrid"));
    m_grid->setModel(m_model);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_grid);
}

void SampleGallery::openSplit(const std::string& experimentYaml, const std::string& split, const LabelOverlay& overlay)
{
    // The same split again: kept, unless it failed to open (the data may be back by now).
    if (experimentYaml == m_yaml && split == m_splitName && overlay == m_overlay && (m_watcher || m_opened.data)) return;
    m_yaml = experimentYaml;
    m_splitName = split;
    m_overlay = overlay;
    m_opened = {};
    m_model->setSplit(nullptr);
    m_model->setClassNames({});
    auto* watcher = new QFutureWatcher<OpenedSplit>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcher<OpenedSplit>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (watcher != m_watcher) return;  // a split no longer wanted
        m_watcher = nullptr;
        applyOpened(watcher->result());
    });
    watcher->setFuture(openEvaluatedSplitOfRunAsync(experimentYaml, split, overlay));
    updateNote();
}

void SampleGallery::setSplit(const OpenedSplit& opened)
{
    m_watcher = nullptr;
    m_yaml.clear();
    m_splitName.clear();
    m_overlay = {};
    applyOpened(opened);
}

void SampleGallery::applyOpened(const OpenedSplit& opened)
{
    m_opened = opened;
    m_model->setClassNames(opened.classNames);
    m_model->setSplit(opened.data);
    updateNote();
    emit splitOpened();
}

void SampleGallery::showSamples(const QString& title, std::vector<EvaluatedSample> samples)
{
    m_model->setSamples(std::move(samples));
    m_grid->setTitle(title);
    m_grid->view()->scrollToTop();
}

bool SampleGallery::showRunSamples(RunReader& reader, qint64 runId, const QString& split, const QList<qint64>& sampleIndices,
                                   const QString& title)
{
    const std::optional<RunInfo> run = reader.run(runId);
    const std::vector<EvaluationRecord> evaluations = run ? reader.evaluations(runId) : std::vector<EvaluationRecord>{};
    const auto newest = std::find_if(evaluations.rbegin(), evaluations.rend(),
                                     [&](const EvaluationRecord& e) { return QString::fromStdString(e.split) == split; });
    if (newest == evaluations.rend()) {
        clear();
        m_grid->setNote(tr("Run %1 has no evaluation of the %2 split to show samples of; evaluate it first.").arg(runId).arg(split));
        return false;
    }
    openSplit(run->experimentYaml, newest->split, runLabelOverlay(reader.workspace(), runId));
    showSamples(title, samplesAt(reader.predictions(newest->id), {sampleIndices.begin(), sampleIndices.end()}));
    return true;
}

void SampleGallery::clear()
{
    m_watcher = nullptr;
    m_yaml.clear();
    m_splitName.clear();
    m_overlay = {};
    m_opened = {};
    m_model->setSplit(nullptr);
    m_model->setClassNames({});
    showSamples(QString(), {});
    updateNote();
}

QString SampleGallery::note() const { return m_grid->note(); }

void SampleGallery::updateNote()
{
    if (m_watcher)
        m_grid->setNote(tr("Opening the dataset to show the images…"));
    else if (!m_opened.error.isEmpty())
        m_grid->setNote(tr("The images cannot be shown: %1").arg(m_opened.error));
    else if (m_opened.data && m_opened.data->sampleShape().rank() != 3)
        m_grid->setNote(tr("The samples are not images (shape %1); only their captions are shown.")
                            .arg(QString::fromStdString(m_opened.data->sampleShape().str())));
    else
        m_grid->setNote(QString());
}

}  // namespace ts::ui
