#include "dataset_open_dialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>

#include "dataset_opener.h"

namespace ts::ui {

DatasetOpenDialog::DatasetOpenDialog(Mode mode, QWidget* parent)
    : QFileDialog(parent, mode == Mode::FoldersOnly ? tr("Open Dataset Folder") : tr("Open Dataset"))
{
    setObjectName(QStringLiteral("openDatasetDialog"));
    setOption(QFileDialog::DontUseNativeDialog);  // the native dialogs take a file or a folder, never either
    if (mode == Mode::FoldersOnly) {
        setFileMode(QFileDialog::Directory);
        setOption(QFileDialog::ShowDirsOnly);
    } else {
        setFileMode(QFileDialog::ExistingFile);
        setNameFilters({tr("Dataset files and folders (*.csv *.csv.gz *-ubyte *-ubyte.gz *.bin *.png *.jpg *.jpeg *.webp *.tif *.tiff *.bmp *.gif)"),
                        tr("All files (*)")});
    }
    setLabelText(QFileDialog::Accept, tr("Open"));

    m_layouts = new QLabel(datasetLayoutsText());
    m_layouts->setObjectName(QStringLiteral("datasetLayoutsHint"));
    m_layouts->setWordWrap(true);
    m_layouts->setTextFormat(Qt::PlainText);
    if (auto* grid = qobject_cast<QGridLayout*>(layout())) grid->addWidget(m_layouts, grid->rowCount(), 0, 1, grid->columnCount());
    if (QPushButton* open = openButton()) open->setToolTip(datasetLayoutsText());

    // Qt disables Open while nothing is selected; here that opens the folder shown, so Open
    // is enabled again once Qt has updated it (queued: Qt's own slots run first).
    auto refresh = [this] { QTimer::singleShot(0, this, &DatasetOpenDialog::refreshOpenButton); };
    connect(this, &QFileDialog::currentChanged, this, refresh);
    connect(this, &QFileDialog::directoryEntered, this, refresh);
    connect(this, &QFileDialog::filterSelected, this, refresh);
    if (auto* edit = findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))) connect(edit, &QLineEdit::textChanged, this, refresh);
}

QPushButton* DatasetOpenDialog::openButton() const
{
    auto* box = findChild<QDialogButtonBox*>(QStringLiteral("buttonBox"));
    return box ? box->button(QDialogButtonBox::Open) : nullptr;
}

QString DatasetOpenDialog::pathToOpen() const
{
    const QStringList selected = selectedFiles();
    return selected.isEmpty() ? directory().absolutePath() : selected.front();
}

void DatasetOpenDialog::accept()
{
    const auto* edit = findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    if (edit && edit->text() == QLatin1String("..")) return QFileDialog::accept();  // Qt's "go up"
    const QString path = pathToOpen();
    const QFileInfo info(path);
    const bool folderShown = info.isDir() && QDir(path) == directory();
    // A folder that is no dataset, selected in the list, is stepped into (Qt's own way);
    // a dataset folder, the folder shown, or any folder in folder mode is opened.
    const bool open = info.isFile() || (info.isDir() && (folderShown || fileMode() == QFileDialog::Directory ||
                                                         !guessDatasetFormat(path).isEmpty()));
    if (!open) return QFileDialog::accept();
    emit datasetChosen(splitRoot(info.absoluteFilePath()));
    QDialog::accept();
}

// train/ or test/ of a train/ + test/ image folder stands for the whole dataset: opened alone it
// would lose the other split.
QString DatasetOpenDialog::splitRoot(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir() || (info.fileName() != QLatin1String("train") && info.fileName() != QLatin1String("test"))) return path;
    const QDir parent = info.dir();
    const bool both = parent.exists(QStringLiteral("train")) && parent.exists(QStringLiteral("test"));
    return both && guessDatasetFormat(parent.absolutePath()) == QLatin1String("image_folder") ? parent.absolutePath() : path;
}

void DatasetOpenDialog::showEvent(QShowEvent* event)
{
    QFileDialog::showEvent(event);
    QTimer::singleShot(0, this, &DatasetOpenDialog::refreshOpenButton);
}

void DatasetOpenDialog::refreshOpenButton()
{
    if (QPushButton* open = openButton(); open && selectedFiles().isEmpty()) open->setEnabled(true);
}

}  // namespace ts::ui
