// Cells that are too narrow for their text show it whole in a tool tip: every item view in
// the application, with no per-view code (an application-wide event filter). A cell with a
// tool tip of its own keeps it.
#pragma once

#include <QObject>

namespace ts::widgets {

class ElidedTextTips : public QObject {
    Q_OBJECT
public:
    // Installs one filter on the application; it is the application's child.
    static void install();

    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

}  // namespace ts::widgets
