// The Datasets page's grid: its split and class filters, given lists of samples (findings,
// suspects, a histogram bar), the title over it and the detail of the sample chosen.
#include "datasets_page.h"

#include <QComboBox>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>

#include "augmentation_preview.h"
#include "count_text.h"
#include "data/image_folder_dataset.h"
#include "sample_detail.h"
#include "sample_ref.h"
#include "statistics_panel.h"
#include "text_panels.h"
#include "text_sample_detail.h"
#include "text_sample_model.h"
#include "widgets/image_grid.h"

namespace ts::ui {

void DatasetsPage::fillSplitAndClassFilters()
{
    const QString split = m_splitFilter->currentData().toString();
    const int cls = m_classFilter->currentData().isValid() ? m_classFilter->currentData().toInt() : -1;
    m_splitFilter->clear();
    if (m_model->files()) {
        auto add = [&](SplitView v, const QString& text) {
            const std::int64_t n = m_model->splitSize(v);
            if (n > 0 || v == SplitView::TrainingFiles) m_splitFilter->addItem(text.arg(countText(n)), splitViewKey(v));
        };
        add(SplitView::TrainingFiles, tr("Training files (%1)"));
        add(SplitView::Train, tr("Train split (%1)"));
        add(SplitView::Validation, tr("Validation split (%1)"));
        add(SplitView::Test, tr("Test files (%1)"));
        if (m_model->dataset(SampleSource::Test)) add(SplitView::All, tr("All samples (%1)"));
    }
    m_splitFilter->setCurrentIndex(std::max(0, m_splitFilter->findData(split)));
    const SplitView view = splitViewFromKey(m_splitFilter->currentData().toString()).value_or(SplitView::TrainingFiles);
    m_classFilter->clear();
    if (m_model->files()) {
        const auto counts = m_model->classCounts(view);
        std::int64_t all = 0;
        for (auto n : counts) all += n;
        m_classFilter->addItem(tr("All classes (%1)").arg(countText(all)), -1);
        for (std::size_t c = 0; c < counts.size(); ++c)
            m_classFilter->addItem(tr("%1 (%2)").arg(m_model->className(std::int64_t(c)), countText(counts[c])), int(c));
    }
    m_classFilter->setCurrentIndex(std::max(0, m_classFilter->findData(cls)));
}

void DatasetsPage::filterFromControls()
{
    SampleFilter f;
    f.split = splitViewFromKey(m_splitFilter->currentData().toString()).value_or(SplitView::TrainingFiles);
    f.classIndex = m_classFilter->currentData().isValid() ? m_classFilter->currentData().toInt() : -1;
    if (f == m_model->filter()) return;  // the item shown picked again: the grid keeps its place
    setFilter(f);
}

void DatasetsPage::setFilter(const SampleFilter& filter)
{
    m_model->setFilter(filter);
    if (!filter.samples) {  // the controls show the filter (a histogram click sets them too)
        m_splitFilter->setCurrentIndex(std::max(0, m_splitFilter->findData(splitViewKey(filter.split))));
        fillSplitAndClassFilters();
        m_classFilter->setCurrentIndex(std::max(0, m_classFilter->findData(filter.classIndex)));
    }
    m_grid->setPairs(filter.samples && filter.pairs);
    m_showAll->setVisible(filter.samples.has_value());
    m_splitFilter->setEnabled(!filter.samples);
    m_classFilter->setEnabled(!filter.samples);
    if (m_opened.ok() && (m_opened.spec.format != "csv" || !m_opened.spec.textColumn.empty())) m_center->setCurrentIndex(1);
    updateGridTitle();
}

void DatasetsPage::showSamples(const QString& title, std::vector<GridSample> samples)
{
    setFilter(SampleFilter::list(title, std::move(samples)));
}

void DatasetsPage::showClass(const QString& split, int classIndex)
{
    SampleFilter f;
    f.split = splitViewFromKey(split).value_or(SplitView::TrainingFiles);
    f.classIndex = classIndex;
    setFilter(f);
}

void DatasetsPage::showSampleRefs(const QString& title, const QVector<SampleRef>& refs)
{
    // Pairs as pairs (the grid keeps each side by side), when every finding is one.
    const bool pairs = !refs.isEmpty() && std::all_of(refs.begin(), refs.end(), [](const SampleRef& r) { return r.isPair(); });
    std::vector<GridSample> samples;
    samples.reserve(std::size_t(refs.size()) * 2);
    for (const SampleRef& r : refs) {
        const auto first = sourceFromName(r.split);
        const auto second = r.isPair() ? sourceFromName(r.pairSplit) : std::nullopt;
        if (pairs && !(first && second)) continue;  // a pair with a side of no known split
        if (first) samples.push_back({*first, r.index});
        if (second) samples.push_back({*second, r.pairWith});
    }
    setFilter(SampleFilter::list(title, std::move(samples), pairs));
}

void DatasetsPage::updateGridTitle()
{
    if (!m_model->files()) {
        m_grid->setTitle({});
        return;
    }
    const SampleFilter& f = m_model->filter();
    const QString name = QString::fromStdString(m_model->files()->name);
    if (f.samples)
        m_grid->setTitle(tr("%1: %2 (%Ln sample(s))", nullptr, m_model->rowCount()).arg(name, f.title));
    else
        m_grid->setTitle(tr("%1: %Ln sample(s)", nullptr, m_model->rowCount()).arg(name));
}

void DatasetsPage::showDetailOf(const QModelIndex& index)
{
    if (!index.isValid() || !m_model->files()) return;
    const GridSample s = m_model->sampleAt(index.row());
    const std::shared_ptr<const ts::Dataset> data =
        s.source == SampleSource::Test ? std::shared_ptr<const ts::Dataset>(m_model->files()->test) : m_model->files()->train;
    QString file;
    if (const auto* folder = dynamic_cast<const ts::ImageFolderDataset*>(data.get()))
        if (s.index >= 0 && std::size_t(s.index) < folder->files().size()) file = QString::fromStdString(folder->files()[std::size_t(s.index)]);
    const QString split = m_model->splitOf(s);
    const QString where = s.source == SampleSource::Test ? tr("Test sample %1").arg(s.index)
                          : split == QLatin1String("validation") ? tr("Training file sample %1 (validation split)").arg(s.index)
                                                                 : tr("Training file sample %1 (train split)").arg(s.index);
    m_detail->showSample(data, s.index, where, file, m_model->classNames());
    // The augmentation preview shows a sample as training sees it: one of the train split.
    if (s.source == SampleSource::Train && split == QLatin1String("train") && m_opened.ok()) {
        const auto& train = m_opened.split.train;
        const auto it = std::lower_bound(train.begin(), train.end(), s.index);
        if (it != train.end() && *it == s.index)
            m_augmentation->setSample(std::make_shared<ts::SubsetDataset>(m_opened.files->train, train, m_opened.files->name + " train"),
                                      std::int64_t(it - train.begin()));
    }
}

}  // namespace ts::ui

namespace ts::ui {

void DatasetsPage::showTextPanels()
{
    const bool text = m_textModel->hasText();
    QWidget* const shown = m_tabs->currentWidget();
    m_grid->setVisible(!text);
    m_textList->setVisible(text);
    // A language model's blocks have no class of their own (their labels are last tokens).
    m_classFilter->setVisible(!m_textModel->blocks());
    const auto show = [this](QWidget* panel, bool visible) {
        for (int i = 0; i < m_tabs->count(); ++i) {
            QWidget* page = m_tabs->widget(i);
            auto* area = qobject_cast<QScrollArea*>(page);
            if (page == panel || (area && area->widget() == panel)) m_tabs->setTabVisible(i, visible);
        }
    };
    show(m_detail, !text);
    show(m_augmentation, !text);  // no augmentation for tokens
    show(m_statistics, !m_textModel->blocks());  // a block's "class" is its last token: no class balance to see
    show(m_text->detail(), text);
    show(m_text->lengthsPanel(), text);
    show(m_text->vocabularyPanel(), text);
    // One sample's tab follows the data (Tokens for text, Sample otherwise), as does a hidden one.
    QWidget* const sampleTab = text ? static_cast<QWidget*>(m_text->detail()) : m_detail;
    if (shown == m_detail || shown == m_text->detail() || !m_tabs->isTabVisible(m_tabs->indexOf(shown)))
        m_tabs->setCurrentWidget(sampleTab);
    if (m_sized) fitPanelsToTabs(true);
}

void DatasetsPage::showTextDetailOf(const QModelIndex& index)
{
    if (!index.isValid() || !m_model->files()) return;
    const GridSample s = m_textModel->sampleAt(index.row());
    const QString split = m_model->splitOf(s);
    const QString where = split == QLatin1String("validation") ? tr("Training file sample %1 (validation split)").arg(s.index)
                                                               : tr("Training file sample %1 (train split)").arg(s.index);
    const QString className = m_textModel->blocks() ? QString() : m_model->className(m_model->labelOf(s));
    m_text->detail()->showSample(m_model->files()->train, s.index, where, className);
}

}  // namespace ts::ui
