// What the studio tells the user about itself and the machine: the status bar's device line
// and the About text. Both read the engine (versions, CUDA) and never the other way round.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace ts {
struct CudaRuntimeInfo;
}

namespace ts::ui {

class SystemInfo {
    Q_DECLARE_TR_FUNCTIONS(SystemInfo)
public:
    // queryCuda() once per process: on a GPU machine it initialises the driver (not free),
    // and the answer does not change while the studio runs.
    static const CudaRuntimeInfo& cuda();

    // "CPU (8 threads)" or the CUDA device name(s).
    static QString deviceSummary();
    static QString deviceSummary(const CudaRuntimeInfo& cuda, int cpuThreads);

    // Rich text for Help > About: versions of TrainStudio, Qt, CUDA runtime, cuBLAS, cuDNN,
    // the devices found (or why none) and the licence.
    static QString aboutHtml();
    static QString aboutHtml(const CudaRuntimeInfo& cuda);
};

}  // namespace ts::ui
