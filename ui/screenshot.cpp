#include "screenshot.h"
#include "user_files.h"

#include <QBuffer>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPixmap>
#include <QThread>
#include <QWidget>
#include <QWindow>

#include <functional>

namespace ts::ui {

namespace {

// Notes the first paint the window receives: exposure alone does not mean it has drawn yet.
class PaintWatcher : public QObject {
public:
    bool painted = false;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) painted = true;
        return QObject::eventFilter(watched, event);
    }
};

// Runs the event loop until `done` holds or the deadline passes (the way QTest::qWait does,
// without linking QtTest into the application).
bool waitUntil(const std::function<bool()>& done, const QElapsedTimer& clock, int timeoutMs)
{
    while (!done()) {
        if (clock.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QThread::msleep(5);
    }
    return true;
}

}  // namespace

QString Screenshot::save(QWidget* window, const QString& path, int timeoutMs)
{
    PaintWatcher watcher;
    window->installEventFilter(&watcher);
    window->show();
    window->update();  // an already visible window paints again, so there is a paint to wait for

    QElapsedTimer clock;
    clock.start();
    const bool exposed = waitUntil([&] { return window->windowHandle() && window->windowHandle()->isExposed(); },
                                   clock, timeoutMs);
    const bool painted = exposed && waitUntil([&] { return watcher.painted; }, clock, timeoutMs);
    window->removeEventFilter(&watcher);
    if (!exposed) return tr("The window was not shown within %1 seconds.").arg(timeoutMs / 1000);
    if (!painted) return tr("The window did not paint within %1 seconds.").arg(timeoutMs / 1000);

    const QPixmap pixmap = window->grab();
    const QString suffix = QFileInfo(path).suffix().toUpper();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    if (pixmap.isNull() || !buffer.open(QIODevice::WriteOnly) ||
        !pixmap.save(&buffer, suffix.isEmpty() ? "PNG" : suffix.toLatin1().constData()))
        return tr("Could not draw the screenshot as %1.").arg(suffix.isEmpty() ? QStringLiteral("PNG") : suffix);
    const widgets::WriteResult written = writeUserFile(path, bytes);
    return written ? QString() : written.message;
}

}  // namespace ts::ui
