#include "user_files.h"

#include "engine_messages.h"
#include "io/output_file.h"

namespace ts::ui {

widgets::WriteResult writeUserFile(const QString& path, const QByteArray& bytes)
{
    try {
        const OutputPlan plan = writeOutputFile(path.toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
        return {true, plan.note ? renderMessage(*plan.note) : QString()};
    } catch (const std::exception& e) {
        return {false, errorText(e)};
    }
}

void installUserFileWriter() { widgets::setFileWriter(&writeUserFile); }

QString errorText(const std::exception& error)
{
    if (const auto* m = dynamic_cast<const MessageError*>(&error)) return renderMessage(m->message());
    return QString::fromStdString(error.what());
}

}  // namespace ts::ui
