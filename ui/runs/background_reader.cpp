#include "background_reader.h"

namespace ts::ui {

BackgroundReader::BackgroundReader()
{
    m_pool.setMaxThreadCount(1);  // one task at a time: the reader is never used concurrently
    m_pool.setExpiryTimeout(-1);  // and the thread stays, so each read does not start one
}

BackgroundReader::~BackgroundReader()
{
    if (m_cancel) m_cancel->store(true);
    waitForDone();
}

void BackgroundReader::waitForDone() { m_pool.waitForDone(); }

RunReader& BackgroundReader::readerFor(const Workspace& workspace)
{
    if (!m_reader || m_path != workspace.databasePath()) {
        m_reader.reset();
        m_reader = std::make_unique<RunReader>(workspace);
        m_path = workspace.databasePath();
    }
    return *m_reader;
}

}  // namespace ts::ui
