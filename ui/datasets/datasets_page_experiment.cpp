// The Datasets page and the experiment: which dataset is the experiment's, edits of its
// settings (CSV columns, split, augmentation, one-click fixes) sent out as the experiment, the
// panels kept in step, "Use in Experiment" and the experiment for a new model.
#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QPushButton>

#include <filesystem>

#include "augmentation_preview.h"
#include "ui/experiment_document.h"
#include "datasets_page.h"

#include "text_panels.h"
#include "graph/templates.h"
#include "health_report_panel.h"
#include "label_check_panel.h"
#include "split_preview.h"
#include "statistics_panel.h"
#include "table_columns.h"

namespace ts::ui {

namespace {

std::string keyOf(const ts::DatasetSpec& spec, const QString& baseDir)
{
    try {
        return ts::datasetKey(spec, baseDir.toStdString());
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace

bool DatasetsPage::showsExperimentDataset() const
{
    if (!m_experiment || !m_opened.ok()) return false;
    const std::string shown = keyOf(m_opened.spec, m_opened.baseDir);
    return !shown.empty() && shown == keyOf(m_experiment->dataset, QString::fromStdString(ts::experimentDataDirectory(*m_experiment)));
}

void DatasetsPage::setExperiment(const ts::ExperimentSpec& spec)
{
    if (m_experiment && *m_experiment == spec) return;  // this page's own edit, back from the document
    const bool wasShown = showsExperimentDataset();
    const bool sameFile = m_experiment && m_experiment->sourceFile == spec.sourceFile;
    m_experiment = spec;
    const QString baseDir = QString::fromStdString(ts::experimentDataDirectory(spec));
    if (showsExperimentDataset()) {
        // The same dataset: only its use may have changed (split, augmentation).
        m_opened.spec = spec.dataset;
        m_opened.baseDir = baseDir;
        const ts::SplitIndices split = carveValidation(*m_opened.files, spec.dataset);
        if (split.validation != m_opened.split.validation) {
            m_opened.split = split;
            m_model->setValidation(split);
            fillSplitAndClassFilters();
            updateGridTitle();
        }
        updatePanels();
    } else if (!wasShown && m_opened.ok() && sameFile && !m_opening) {
        // Looking at another dataset than the experiment's: keep it shown.
        updatePanels();
    } else if (!spec.dataset.path.empty()) {
        m_openingPath.clear();
        openSpec(spec.dataset, baseDir);
    }
    updateActions();
}

ts::DatasetSpec DatasetsPage::experimentDatasetSpecFor(const ts::DatasetSpec& shown) const
{
    return showsExperimentDataset() ? m_experiment->dataset : shown;
}

void DatasetsPage::updatePanels()
{
    const ts::DatasetSpec spec = experimentDatasetSpecFor(m_opened.spec);
    m_statistics->setData(m_opened.files, spec);
    m_text->setData(m_opened.files, m_opened.split, spec);
    m_split->setSpec(spec, m_opened.files);
    if (m_experiment && showsExperimentDataset())
        m_augmentation->setExperiment(*m_experiment);
    else
        m_augmentation->setSpec(spec);
    if (!m_opened.ok()) m_augmentation->setSample(nullptr, -1);
    if (m_opened.ok()) {
        m_health->setExperiment(experimentWithShownDataset());
        m_health->setFiles(m_opened.files);
        m_labelCheck->setExperiment(experimentWithShownDataset());
    } else {
        m_health->setFiles(nullptr);
    }
}

ts::ExperimentSpec DatasetsPage::experimentWithShownDataset() const
{
    if (showsExperimentDataset()) return *m_experiment;
    ts::ExperimentSpec spec = m_experiment.value_or(ts::ExperimentSpec{});
    spec.dataset = m_opened.spec;
    spec.dataset.path = std::filesystem::absolute(ts::resolvedDatasetPath(m_opened.spec, m_opened.baseDir.toStdString()))
                            .lexically_normal()
                            .string();
    return spec;
}

void DatasetsPage::updateActions()
{
    const bool ok = m_opened.ok() && !isOpening();
    m_newModel->setEnabled(ok);
    m_newModelButton->setEnabled(ok);
    m_useButton->setVisible(ok && !showsExperimentDataset());
    m_useButton->setEnabled(ok);
}

void DatasetsPage::emitExperiment(const QString& what)
{
    if (m_experiment) emit experimentEdited(*m_experiment, what);
}

void DatasetsPage::setDocument(ExperimentDocument* document)
{
    connect(document, &ExperimentDocument::changed, this, [this, document] {
        if (document->hasExperiment()) setExperiment(document->spec());
    });
    connect(this, &DatasetsPage::experimentEdited, document,
            [document](const ts::ExperimentSpec& spec, const QString& what) { document->edit(spec, what); });
    if (document->hasExperiment()) setExperiment(document->spec());
}

void DatasetsPage::onColumnChoice()
{
    if (!m_opened.table) return;
    m_labelColumn->setCurrentIndex(m_labelColumn->findData(m_columns->labelColumn()));
    m_groupColumn->setCurrentIndex(std::max(0, m_groupColumn->findData(m_columns->groupColumn())));
    applyDatasetEdit(m_columns->applyTo(experimentDatasetSpecFor(m_opened.spec)));
}

void DatasetsPage::applyDatasetEdit(const ts::DatasetSpec& edited)
{
    const bool experiments = showsExperimentDataset();
    const bool reopen = keyOf(edited, m_opened.baseDir) != keyOf(m_opened.spec, m_opened.baseDir) || !m_opened.ok();
    if (experiments) {
        m_experiment->dataset = edited;
        emitExperiment(tr("Edit the dataset's settings"));
    }
    if (reopen) {
        startOpening(edited, m_opened.baseDir);  // the same dataset read anew: a chosen path stays chosen
        return;
    }
    m_opened.spec = edited;
    const ts::SplitIndices split = carveValidation(*m_opened.files, edited);
    if (split.validation != m_opened.split.validation) {
        m_opened.split = split;
        m_model->setValidation(split);
        fillSplitAndClassFilters();
        updateGridTitle();
    }
    updatePanels();
}

void DatasetsPage::useInExperiment()
{
    if (!m_opened.ok()) return;
    ts::ExperimentSpec spec = m_experiment.value_or(ts::ExperimentSpec{});
    const std::int64_t channelsBefore = std::int64_t(spec.dataset.normalizeMean.size());
    ts::DatasetSpec d = spec.dataset;
    const ts::DatasetSpec& shown = m_opened.spec;
    d.format = shown.format;
    d.path = std::filesystem::absolute(ts::resolvedDatasetPath(shown, m_opened.baseDir.toStdString())).lexically_normal().string();
    d.labelColumn = shown.labelColumn;
    d.featureColumns = shown.featureColumns;
    d.groupColumn = shown.groupColumn;
    d.imageShape = shown.imageShape;
    const ts::Shape shape = m_opened.files->train->sampleShape();
    if (channelsBefore != 0 && (shape.rank() != 3 || shape[0] != channelsBefore)) {
        d.normalizeMean.clear();  // another number of channels: the old normalisation cannot apply
        d.normalizeStd.clear();
    }
    if (shape.rank() != 3) d.randomCropPadding = 0, d.horizontalFlip = false;  // tables have no pixels to move
    d.classWeights.clear();  // the old dataset's classes
    spec.dataset = d;
    m_experiment = spec;
    m_opened.spec = d;
    m_opened.baseDir.clear();
    const ts::SplitIndices split = carveValidation(*m_opened.files, d);  // the experiment's split settings
    if (split.validation != m_opened.split.validation) {
        m_opened.split = split;
        m_model->setValidation(split);
        fillSplitAndClassFilters();
        updateGridTitle();
    }
    emitExperiment(tr("Use %1 in the experiment").arg(QFileInfo(QString::fromStdString(d.path)).fileName()));
    updatePanels();
    updateActions();
}

std::optional<ts::ExperimentSpec> DatasetsPage::experimentForNewModel() const
{
    if (!m_opened.ok()) return std::nullopt;
    ts::ExperimentSpec spec = experimentWithShownDataset();
    const ts::Shape shape = m_opened.files->train->sampleShape();
    ts::TemplateInput input{std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end()), int(m_opened.files->train->numClasses())};
    for (const char* name : {"cnn", "mlp"})
        if (ts::templateAccepts(name, input)) {
            spec.model = ts::templateGraph(name, input);
            spec.layout = {};  // the drawing was of the old model
            return spec;
        }
    return spec;  // no template fits (one class): the dataset settings alone
}

}  // namespace ts::ui
