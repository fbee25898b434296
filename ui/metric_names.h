// What the store's metric and split names ("test_acc", "val_loss", "train") read as in the
// studio, in the user's language: one place, so no sentence shows a raw key.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace ts::ui {

class MetricNames {
    Q_DECLARE_TR_FUNCTIONS(MetricNames)
public:
    // "Test accuracy", "Validation loss", "Learning rate"; a name it does not know, as stored.
    static QString label(const QString& metric);
    // "test", "validation", "training" (lower case: it goes inside sentences).
    static QString split(const QString& split);
};

}  // namespace ts::ui
