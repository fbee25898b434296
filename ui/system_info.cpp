#include "system_info.h"

#include <QLocale>
#include <QStringList>
#include <QtGlobal>

#include "backend/cpu/parallel.h"
#include "backend/devices.h"
#include "version.h"

namespace ts::ui {

namespace {
QString fromStd(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
}  // namespace

const CudaRuntimeInfo& SystemInfo::cuda()
{
    static const CudaRuntimeInfo info = queryCuda();
    return info;
}

QString SystemInfo::deviceSummary() { return deviceSummary(cuda(), cpu::threadCount()); }

QString SystemInfo::deviceSummary(const CudaRuntimeInfo& info, int cpuThreads)
{
    if (info.devices.empty()) return tr("CPU (%n threads)", nullptr, cpuThreads);
    const QString first = QString::fromStdString(info.devices.front().name);
    if (info.devices.size() == 1) return first;
    return tr("%1 and %n more", nullptr, int(info.devices.size()) - 1).arg(first);
}

QString SystemInfo::aboutHtml() { return aboutHtml(cuda()); }

QString SystemInfo::aboutHtml(const CudaRuntimeInfo& info)
{
    const QString notBuilt = tr("not built in");
    auto row = [](const QString& name, const QString& value) {
        return QStringLiteral("<tr><td style='padding-right:12px'>%1</td><td>%2</td></tr>").arg(name, value);
    };

    QString rows;
    rows += row(QStringLiteral("TrainStudio"), fromStd(engineVersion()));
    // The Qt the studio runs on can differ from the one it was built against; show both if so.
    QString qt = QString::fromLatin1(qVersion());
    if (qt != QLatin1String(QT_VERSION_STR)) qt = tr("%1 (built with %2)").arg(qt, QLatin1String(QT_VERSION_STR));
    rows += row(QStringLiteral("Qt"), qt);
    rows += row(tr("CUDA runtime"), info.compiledIn ? fromStd(info.runtimeVersion) : notBuilt);
    rows += row(QStringLiteral("cuBLAS"), info.compiledIn ? fromStd(info.cublasVersion) : notBuilt);
    rows += row(QStringLiteral("cuDNN"), info.compiledIn ? fromStd(info.cudnnVersion) : notBuilt);

    QStringList devices;
    for (const CudaDeviceInfo& d : info.devices)
        devices << tr("%1 (%2 GiB, compute capability %3.%4)")
                       .arg(fromStd(d.name), QLocale().toString(double(d.totalMemory) / (1ull << 30), 'f', 1))
                       .arg(d.computeMajor)
                       .arg(d.computeMinor);
    // The engine's reason is plain English from below the UI (rule 1: it has no Qt, no tr()).
    rows += row(tr("GPUs"), devices.isEmpty() ? fromStd(info.reason) : devices.join(QStringLiteral("<br>")));

    return QStringLiteral("<h3>TrainStudio %1</h3><p>%2</p><table>%3</table><p>%4</p>")
        .arg(fromStd(engineVersion()), tr("Design, train and compare neural networks."), rows,
             tr("TrainStudio is free software: you can redistribute it and/or modify it under the terms of the "
                "GNU General Public License, version 3 or (at your option) any later version "
                "(GPL-3.0-or-later)."));
}

}  // namespace ts::ui
