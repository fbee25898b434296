// DatasetsPage, opening a dataset: the dialogs, the opening on a worker thread and what the
// page shows of the result (its summary, its panels).
#include "datasets_page.h"

#include "count_text.h"

#include <QFileInfo>
#include <QLocale>

#include "data/csv_dataset.h"
#include "data/text_statistics.h"
#include "data/tokenizer.h"
#include "dataset_list.h"
#include "dataset_open_dialog.h"
#include "health_report_panel.h"
#include "label_check_panel.h"
#include "sample_detail.h"
#include "statistics_panel.h"
#include "store/label_overlay.h"
#include "table_columns.h"
#include "text_panels.h"
#include "text_sample_model.h"

namespace ts::ui {

void DatasetsPage::showOpenDialog()
{
    auto* dialog = new DatasetOpenDialog(DatasetOpenDialog::Mode::FilesAndFolders, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!m_chosenPath.isEmpty()) dialog->setDirectory(QFileInfo(m_chosenPath).absolutePath());
    connect(dialog, &DatasetOpenDialog::datasetChosen, this, &DatasetsPage::openChosen);
    dialog->open();  // window-modal, no nested event loop
}

void DatasetsPage::showOpenFolderDialog()
{
    auto* dialog = new DatasetOpenDialog(DatasetOpenDialog::Mode::FoldersOnly, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (!m_chosenPath.isEmpty()) dialog->setDirectory(QFileInfo(m_chosenPath).absolutePath());
    connect(dialog, &DatasetOpenDialog::datasetChosen, this, &DatasetsPage::openChosen);
    dialog->open();
}

void DatasetsPage::openChosen(const QString& path)
{
    const QString format = std::exchange(m_nextFormat, QString());
    openPath(path, format);
}

void DatasetsPage::openPath(const QString& path, const QString& format)
{
    m_chosenPath = path;
    m_openingPath = path;
    const QString guessed = format.isEmpty() ? guessDatasetFormat(path) : format;
    startOpening(datasetSpecForPath(path, guessed), {});
}

void DatasetsPage::applyFormat(const QString& format)
{
    if (isOpening()) return;
    if (m_chosenPath.isEmpty()) {  // the experiment's dataset is no path of the user's: it stays as it is
        m_nextFormat = format;  // the box keeps showing it until then
        setMessage(format.isEmpty() ? tr("The next dataset you open has its format told from its files.")
                                    : tr("The next dataset you open (File > Open Dataset…) is read as %1; the dataset "
                                         "shown stays as it is.").arg(datasetFormatName(format)),
                   false);
        return;
    }
    m_keepShownOnError = m_opened.ok();
    openPath(m_chosenPath, format);
}

void DatasetsPage::showFormatOf(const ts::DatasetSpec& spec)
{
    m_format->setCurrentIndex(std::max(0, m_format->findData(QString::fromStdString(spec.format))));
}

void DatasetsPage::openSpec(const ts::DatasetSpec& spec, const QString& baseDir)
{
    m_chosenPath.clear();
    startOpening(spec, baseDir);
}

void DatasetsPage::startOpening(const ts::DatasetSpec& spec, const QString& baseDir)
{
    ++m_openGeneration;
    if (m_openingPath.isEmpty() || datasetSpecForPath(m_openingPath, QString::fromStdString(spec.format)).path != spec.path)
        m_openingPath = QString::fromStdString(spec.path.empty() ? std::string() : ts::resolvedDatasetPath(spec, baseDir.toStdString()));
    m_opening = true;  // until onOpened: the watcher's own state turns before its signal arrives
    m_busy->show();
    setMessage(tr("Opening %1…").arg(m_openingPath), false);
    m_opener.setFuture(openDatasetAsync(spec, baseDir));
    updateActions();
}

bool DatasetsPage::isOpening() const { return m_opening; }

void DatasetsPage::onOpened()
{
    m_opening = false;
    m_busy->hide();
    const bool keepShown = std::exchange(m_keepShownOnError, false);
    OpenedDataset result = m_opener.result();
    if (keepShown && !result.ok() && m_opened.ok()) {
        // Another format for the chosen path did not read it: what was shown stays, as it was.
        const QString tried = datasetFormatName(QString::fromStdString(result.spec.format));
        QString text = tr("%1 cannot be read as %2: %3").arg(m_chosenPath, tried, result.error) + QLatin1Char('\n');
        if (result.spec.format != "csv") text += result.advice + QLatin1Char('\n');  // a CSV's advice is about a table not shown
        setMessage(text + tr("Still shown: %1, read as %2.")
                              .arg(QString::fromStdString(m_opened.files->name),
                                   datasetFormatName(QString::fromStdString(m_opened.spec.format))),
                   true);
        showFormatOf(m_opened.spec);
        updateActions();
        emit datasetOpened();
        return;
    }
    m_opened = std::move(result);
    showFormatOf(m_opened.spec);
    showOpened();
    if (m_opened.ok()) {
        const ts::DatasetRecord record = ts::datasetRecordFor(m_opened.spec, m_opened.baseDir.toStdString(), *m_opened.files);
        const std::string key = record.key;
        runStore([record, key](const ts::Workspace& ws) {
            StoreResult r;
            ts::DatasetCatalog catalog(ws);
            catalog.remember(record);
            r.records = catalog.datasets();
            r.overlay = ts::readLabelOverlay(ws, key);
            return r;
        });
        m_list->setCurrentKey(key);
    }
    emit datasetOpened();
}

void DatasetsPage::showOpened()
{
    m_verdicts.clear();
    m_overlay = {};
    m_detail->clear();
    const bool table = m_opened.spec.format == "csv" && m_opened.spec.textColumn.empty();  // a CSV of texts lists them
    if (m_opened.ok() && !table) {
        m_model->setDataset(m_opened.files, m_opened.split);
        m_center->setCurrentIndex(1);
    } else {
        m_model->clear();
        m_center->setCurrentIndex(table && m_opened.table ? 2 : 0);
    }
    QStringList readFeatures;  // what the reader took as features when none are named
    if (const auto* csv = m_opened.ok() ? dynamic_cast<const ts::CsvDataset*>(m_opened.files->train.get()) : nullptr)
        for (const std::string& f : csv->featureNames()) readFeatures << QString::fromStdString(f);
    m_columns->setTable(m_opened.table, m_opened.spec, readFeatures);
    m_rows->setTable(m_opened.table);
    if (table && m_opened.ok()) m_model->setDataset(m_opened.files, m_opened.split);  // class names, detail
    if (m_opened.table) {
        m_labelColumn->clear();
        m_groupColumn->clear();
        m_groupColumn->addItem(tr("(none)"), QString());
        for (const QString& h : m_opened.table->header) {
            m_labelColumn->addItem(h, h);
            m_groupColumn->addItem(h, h);
        }
        m_labelColumn->setCurrentIndex(m_labelColumn->findData(QString::fromStdString(m_opened.spec.labelColumn)));
        m_groupColumn->setCurrentIndex(std::max(0, m_groupColumn->findData(QString::fromStdString(m_opened.spec.groupColumn))));
    }
    fillSplitAndClassFilters();
    updateGridTitle();
    updatePanels();
    showTextPanels();
    if (!m_opened.ok()) {
        QString text = m_opened.error;
        if (m_opened.table && m_opened.table->raggedRows > 0)
            text += QLatin1Char('\n') + tr("%n row(s) have another number of fields than the header (the first on line %1).", nullptr,
                                           int(m_opened.table->raggedRows)).arg(m_opened.table->firstRaggedLine);
        setMessage(text + QLatin1Char('\n') + m_opened.advice, true);
    } else {
        const ts::DatasetFiles& f = *m_opened.files;
        const QString text = openedSummary();
        if (f.testError) {  // the training files are shown; training refuses until the test files are mended
            setMessage(text + QLatin1Char('\n') +
                           tr("The test files cannot be read, so only the training files are shown and training will "
                              "refuse this dataset until they are replaced: %1").arg(QString::fromLocal8Bit(f.testError->what())),
                       true);
            updateActions();
            return;
        }
        setMessage(text, false);
    }
    updateActions();
}

QString DatasetsPage::openedSummary() const
{
    const ts::DatasetFiles& f = *m_opened.files;
    QString text = tr("%1: %2 training samples").arg(QString::fromStdString(f.name), countText(f.train->size()));
    if (f.test) text += tr(", %1 test samples").arg(countText(f.test->size()));
    const QString seconds = QLocale().toString(m_opened.seconds, 'f', 1);
    if (const ts::Tokenizer* tokens = ts::textTokenizer(*f.train)) {  // a language model's "classes" are its tokens
        const QString context = countText(f.train->sampleShape().numel()), vocabulary = countText(tokens->size());
        if (m_textModel->blocks())
            return text + tr(", blocks of %1 tokens, %2 token ids (opened in %3 s)").arg(context, vocabulary, seconds);
        return text + tr(", %n class(es), texts of up to %1 tokens, %2 token ids (opened in %3 s)", nullptr, int(f.train->numClasses()))
                          .arg(context, vocabulary, seconds);
    }
    return text + tr(", %n class(es), samples of %1 (opened in %2 s)", nullptr, int(f.train->numClasses()))
                      .arg(QString::fromStdString(f.train->sampleShape().str()), seconds);
}

}  // namespace ts::ui
