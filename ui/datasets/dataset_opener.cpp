#include "dataset_opener.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "table_columns.h"
#include "data/data_files.h"
#include "data/image_folder_dataset.h"

namespace ts::ui {

namespace {

// The context of this file's user-facing text (lupdate reads DatasetOpener::tr).
class DatasetOpener {
    Q_DECLARE_TR_FUNCTIONS(DatasetOpener)
};

bool isIdxName(const QString& name) { return name.contains(QLatin1String("-idx")) && name.contains(QLatin1String("ubyte")); }
bool isCifarName(const QString& name)
{
    return (name.startsWith(QLatin1String("data_batch_")) || name.startsWith(QLatin1String("test_batch"))) &&
           (name.endsWith(QLatin1String(".bin")) || name.endsWith(QLatin1String(".bin.gz")));
}
bool isImageName(const QString& name) { return ts::isImageFileName(name.toStdString()); }
bool isCsvName(const QString& name)
{
    const QString s = name.toLower();
    return s.endsWith(QLatin1String(".csv")) || s.endsWith(QLatin1String(".csv.gz"));
}

// A folder of class sub-folders with at least one image in one of them.
QString firstImageOfClassFolders(const QDir& dir)
{
    for (const QFileInfo& sub : dir.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QStringList images = QDir(sub.filePath()).entryList(QDir::Files, QDir::Name);
        for (const QString& f : images)
            if (isImageName(f)) return QDir(sub.filePath()).filePath(f);
    }
    return {};
}

QString firstImage(const QString& root)
{
    const QDir dir(root);
    if (dir.exists(QStringLiteral("train"))) {
        const QString f = firstImageOfClassFolders(QDir(dir.filePath(QStringLiteral("train"))));
        if (!f.isEmpty()) return f;
    }
    return firstImageOfClassFolders(dir);
}

// Why the opening failed, in terms of what to do next.
QString adviceFor(const ts::DatasetSpec& spec, const QString& error)
{
    if (spec.format.empty())
        return DatasetOpener::tr("%1 For another kind of dataset, pick its format from the Format list and open it again.")
            .arg(datasetLayoutsText());
    if (error.contains(QLatin1String("not found")) || error.contains(QLatin1String("no such")))
        return DatasetOpener::tr("Check that the folder holds the dataset's files, or open another folder (File > Open Dataset…).");
    if (spec.format == "csv")
        return DatasetOpener::tr("Choose the label and feature columns in the table below, or fix the line named in the message.");
    if (spec.format == "image_folder")
        return DatasetOpener::tr("%1 If the message names a file, remove or replace it.").arg(datasetLayoutsText());
    return DatasetOpener::tr("The file named in the message is damaged or of another format: download it again, or pick another "
                  "format if the guess was wrong.");
}

}  // namespace

QString datasetLayoutsText()
{
    return DatasetOpener::tr("An image folder holds one sub-folder of images (PNG, JPEG, WebP, TIFF, BMP or GIF) per class (flowers/daisy/1.png, "
                             "flowers/rose/2.jpg), or train/ and test/ folders that each hold such class folders "
                             "(flowers/train/daisy/…, flowers/test/daisy/…).");
}

QStringList datasetFormats()
{
    return {QStringLiteral("idx"),          QStringLiteral("cifar10"), QStringLiteral("csv"),
            QStringLiteral("image_folder"), QStringLiteral("text"),    QStringLiteral("text_folder")};
}

QString datasetFormatName(const QString& format)
{
    if (format == QLatin1String("idx")) return DatasetOpener::tr("IDX (MNIST, Fashion-MNIST)");
    if (format == QLatin1String("cifar10")) return DatasetOpener::tr("CIFAR-10 binary batches");
    if (format == QLatin1String("csv")) return DatasetOpener::tr("CSV table");
    if (format == QLatin1String("image_folder")) return DatasetOpener::tr("Image folder (one sub-folder per class)");
    if (format == QLatin1String("text")) return DatasetOpener::tr("Text (a language model's corpus)");
    if (format == QLatin1String("text_folder")) return DatasetOpener::tr("Text folder (one sub-folder or file per class)");
    return format;
}

QString guessDatasetFormat(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile()) {
        const QString name = info.fileName();
        if (isCsvName(name)) return QStringLiteral("csv");
        if (isIdxName(name)) return QStringLiteral("idx");
        if (isCifarName(name)) return QStringLiteral("cifar10");
        if (isImageName(name)) return QStringLiteral("image_folder");  // an image of a class folder
        return {};
    }
    if (!info.isDir()) return {};
    const QDir dir(path);
    const QStringList files = dir.entryList(QDir::Files, QDir::Name);
    if (std::any_of(files.begin(), files.end(), [](const QString& f) { return f.startsWith(QLatin1String("train-images-idx3-ubyte")); }))
        return QStringLiteral("idx");
    if (std::any_of(files.begin(), files.end(), isCifarName) || dir.exists(QStringLiteral("cifar-10-batches-bin")))
        return QStringLiteral("cifar10");
    if (!firstImage(path).isEmpty()) return QStringLiteral("image_folder");
    return {};
}

QString datasetPathFor(const QString& path, const QString& format)
{
    const QFileInfo info(path);
    if (!info.isFile()) return path;
    if (format == QLatin1String("idx") || format == QLatin1String("cifar10")) return info.absolutePath();
    if (format == QLatin1String("image_folder")) {  // root/class/image.png (or root/train/class/image.png)
        QDir root = info.absoluteDir();
        root.cdUp();
        if (root.dirName() == QLatin1String("train") || root.dirName() == QLatin1String("test")) root.cdUp();
        return root.path();
    }
    return path;
}

ts::DatasetSpec datasetSpecForPath(const QString& path, const QString& givenFormat)
{
    ts::DatasetSpec spec;
    const QString format = givenFormat.isEmpty() ? guessDatasetFormat(path) : givenFormat;
    spec.format = format.toStdString();
    const QString resolved = datasetPathFor(path, format);
    spec.path = QFileInfo(resolved).absoluteFilePath().toStdString();
    return spec;
}

QString OpenedDataset::key() const
{
    try {
        return QString::fromStdString(ts::datasetKey(spec, baseDir.toStdString()));
    } catch (const std::exception&) {
        return {};
    }
}

ts::SplitIndices carveValidation(const ts::DatasetFiles& files, const ts::DatasetSpec& spec)
{
    const double fraction = std::clamp(spec.validationFraction, 0.0, 0.99);
    return files.groups.empty() ? ts::splitIndices(files.train->size(), fraction, spec.splitSeed)
                                : ts::splitGroups(files.groups, fraction, spec.splitSeed);
}

// What a spec made from a path alone leaves open, filled in from the files: an image folder's
// shape, as the engine picks it when an experiment names none (the most common size, at most 256
// pixels a side, from the headers only, so a huge image is never decoded here).
static void completeImageShape(ts::DatasetSpec& spec, const QString& baseDir)
{
    if (spec.format != "image_folder" || !spec.imageShape.empty()) return;
    try {
        const std::string root = ts::resolvedDatasetPath(spec, baseDir.toStdString());
        const std::string train = ts::joinPath(root, "train");
        const ts::ImageFolderDataset images(QFileInfo(QString::fromStdString(train)).isDir() ? train : root, {}, "shape");
        const ts::Shape shape = images.sampleShape();
        spec.imageShape = {shape[0], shape[1], shape[2]};
    } catch (const std::exception&) {  // openDatasetFiles says the same when it reads the folder
    }
}

OpenedDataset openDatasetNow(const ts::DatasetSpec& given, const QString& baseDir)
{
    ts::DatasetSpec spec = given;
    completeImageShape(spec, baseDir);
    QElapsedTimer timer;
    timer.start();
    OpenedDataset o;
    o.spec = spec;  // as completed
    o.baseDir = baseDir;
    if (spec.format == "csv") {
        try {
            o.table = std::make_shared<CsvTable>(readCsvTable(ts::resolvedDatasetPath(spec, baseDir.toStdString())));
            if (spec.labelColumn.empty()) o.spec.labelColumn = spec.labelColumn = guessLabelColumn(o.table->header).toStdString();
        } catch (const std::exception&) {  // openDatasetFiles below reports the same problem
        }
    }
    if (spec.format.empty()) {  // nothing the names told: say what the path lacks, not "unknown format ''"
        const QString path = QString::fromStdString(spec.path);
        const QFileInfo info(path);
        o.error = !info.exists() ? DatasetOpener::tr("%1: no such file or folder.").arg(path)
                  : info.isDir()
                      ? DatasetOpener::tr("%1 holds no dataset that can be read: no class folders of images, no IDX or "
                                          "CIFAR-10 files.").arg(path)
                      : DatasetOpener::tr("%1 is not a file of a dataset that can be read (a CSV table, an IDX or "
                                          "CIFAR-10 file, or an image of an image folder).").arg(path);
        o.advice = adviceFor(spec, o.error);
        o.seconds = double(timer.nsecsElapsed()) / 1e9;
        return o;
    }
    try {
        auto files = std::make_shared<ts::DatasetFiles>(ts::openDatasetFiles(spec, baseDir.toStdString()));
        o.split = carveValidation(*files, spec);
        o.files = std::move(files);
    } catch (const std::exception& e) {
        o.error = QString::fromLocal8Bit(e.what());
        o.advice = adviceFor(spec, o.error);
    }
    o.seconds = double(timer.nsecsElapsed()) / 1e9;
    return o;
}

QFuture<OpenedDataset> openDatasetAsync(ts::DatasetSpec spec, QString baseDir)
{
    return QtConcurrent::run([spec = std::move(spec), baseDir = std::move(baseDir)] { return openDatasetNow(spec, baseDir); });
}

}  // namespace ts::ui
