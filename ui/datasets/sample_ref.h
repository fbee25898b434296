// A sample of an opened dataset, as the Datasets page's panels hand lists of them to the grid
// (a health finding's samples, a duplicate or leaked pair side by side).
//
// `split` names a file split, as DatasetFiles holds them and the health check reports them:
// "train" (every training sample, before validation is carved out: DatasetFiles::train's
// index) or "test". A pair's second sample is (pairSplit, pairWith); pairWith -1: no pair.
#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

namespace ts::ui {

struct SampleRef {
    QString split;
    qint64 index = -1;
    qint64 pairWith = -1;
    QString pairSplit;

    bool isPair() const { return pairWith >= 0; }
    bool operator==(const SampleRef&) const = default;
};

}  // namespace ts::ui

Q_DECLARE_METATYPE(ts::ui::SampleRef)
