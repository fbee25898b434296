// Headless checks (Xvfb, the offscreen platform, CI) need proof the window really came up:
// show it, wait until the platform exposed it and it painted, then grab it to an image file.
#pragma once

#include <QCoreApplication>
#include <QString>

class QWidget;

namespace ts::ui {

class Screenshot {
    Q_DECLARE_TR_FUNCTIONS(Screenshot)
public:
    // Returns an empty string on success, else what went wrong (for the user).
    // The format follows the file's suffix; PNG when it has none.
    static QString save(QWidget* window, const QString& path, int timeoutMs = 15000);
};

}  // namespace ts::ui
