#include "studio_workspace.h"

#include <QByteArray>
#include <QDir>
#include <QFile>

#include <stdexcept>

namespace ts::ui {

ts::Workspace studioWorkspace()
{
    const QByteArray fromEnv = qgetenv("TRAINSTUDIO_WORKSPACE");
    const QString chosen = fromEnv.isEmpty() ? QString::fromStdString(ts::Workspace::defaultDirectory())
                                             : QFile::decodeName(fromEnv);
    const std::string directory = QDir(chosen).absolutePath().toStdString();  // Workspace wants it absolute
    try {
        return ts::Workspace::open(directory);
    } catch (const std::runtime_error&) {
        // Not fatal for the window: the Runs page shows the store's own message instead.
        return ts::Workspace{directory};
    }
}

}  // namespace ts::ui
