// Opening a dataset for the Datasets page: what format a dropped or chosen path holds, and the
// opening itself through the engine's readers (openDatasetFiles, data/dataset.h), never a
// second parser. Opening reads and inflates the files (Fashion-MNIST: about a second), so the
// page runs openDatasetAsync on QtConcurrent's pool and applies the result on the UI thread.
//
// A CSV file is also read as a table of columns (table_columns.h) whether or not it opens as
// a dataset, so a bad label column or a ragged row still shows the columns to choose from.
#pragma once

#include <QFuture>
#include <QString>

#include <memory>

#include "data/dataset.h"
#include "data/subset_dataset.h"

namespace ts::ui {

struct CsvTable;

// The formats the engine reads, as DatasetSpec::format spells them.
QStringList datasetFormats();
// A user-facing name for a format ("IDX (MNIST, Fashion-MNIST)").
QString datasetFormatName(const QString& format);

// The layouts an image folder may have, in a sentence for the open dialog, tool tips and the
// error of a folder that has neither.
QString datasetLayoutsText();

// What a path holds, judged by the names in it: "idx" (train-images-idx3-ubyte[.gz]),
// "cifar10" (data_batch_N.bin, or a cifar-10-batches-bin folder), "csv" (a .csv file),
// "image_folder" (class sub-folders of images, or train/ and test/ holding them), or empty
// when it is none of them (the page then asks the user to pick). A file inside an IDX or
// CIFAR folder counts as its folder (datasetPathFor says which).
QString guessDatasetFormat(const QString& path);
// The path the spec names for `path` in `format`: the folder for a file of an IDX or CIFAR
// folder, else the path itself.
QString datasetPathFor(const QString& path, const QString& format);

// A spec for `path` in `format` (empty: guessed): format and absolute path. What else it needs
// is filled in by openDatasetNow from the files: a CSV's label column when none is given (a
// column named label, class, target or y, else the last), an image folder's shape when none
// is given (the first image's: channels by its pixel format, the larger edge at most 256).
ts::DatasetSpec datasetSpecForPath(const QString& path, const QString& format = {});

struct OpenedDataset {
    ts::DatasetSpec spec;  // as opened, completed (see datasetSpecForPath)
    QString baseDir;       // relative paths in spec resolve against it
    std::shared_ptr<const ts::DatasetFiles> files;  // null when the files could not be opened
    ts::SplitIndices split;  // validation carved out of files->train as training will (seeded)
    std::shared_ptr<const CsvTable> table;  // csv: the columns (also when files is null)
    QString error;   // the engine's message: it names the file and the byte offset or line
    QString advice;  // what the user can do about it
    double seconds = 0;

    bool ok() const { return files != nullptr; }
    QString key() const;  // datasetKey: what identifies the dataset across experiments
};

// Never throws: a missing folder, a damaged file or a bad setting ends in error + advice.
OpenedDataset openDatasetNow(const ts::DatasetSpec& spec, const QString& baseDir);
QFuture<OpenedDataset> openDatasetAsync(ts::DatasetSpec spec, QString baseDir);

// The split carved out of opened files as openDataset does it (grouped for a CSV with groups).
ts::SplitIndices carveValidation(const ts::DatasetFiles& files, const ts::DatasetSpec& spec);

}  // namespace ts::ui
