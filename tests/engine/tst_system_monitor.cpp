// The system monitor and the NVML reading behind its GPU fields. Development machines and
// CI have no GPU: there the reading must be absent with a reason, and a monitor asked for a
// GPU must still sample CPU and RAM. On the GPU machine the same suite checks real values.
#include <QtTest>

#include <chrono>
#include <thread>

#include "backend/nvml/nvml.h"
#include "train/system_monitor.h"

using namespace ts;

class TestSystemMonitor : public QObject {
    Q_OBJECT

private slots:
    void gpuReadingOrReason()
    {
        std::string why;
        const auto g = readGpu(0, &why);
        if (!g) {
            QVERIFY2(why.starts_with("no GPU"), why.c_str());
            return;
        }
        QVERIFY(g->memoryTotalBytes > 0);
        QVERIFY(g->memoryUsedBytes >= 0 && g->memoryUsedBytes <= g->memoryTotalBytes);
        QVERIFY(g->utilizationPercent >= 0 && g->utilizationPercent <= 100);
        QVERIFY(g->smClockMHz > 0);
    }

    void badIndexHasReason()
    {
        std::string why;
        QVERIFY(!readGpu(-1, &why));
        QVERIFY2(why.starts_with("no GPU"), why.c_str());
        QVERIFY(!readGpu(1000, &why));  // no machine has that many
        QVERIFY2(why.starts_with("no GPU"), why.c_str());
    }

    void monitorWithGpuIndexSamples()
    {
        SystemMonitor monitor(0.05, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const SystemSample s = monitor.latest();
        QVERIFY(s.wallTime > 0);
        QVERIFY(s.cpuPercent >= 0);
        QVERIFY(s.ramBytes > 0);
        if (!readGpu(0)) {  // no GPU: the GPU fields stay unknown
            QCOMPARE(s.gpuPercent, -1.0);
            QCOMPARE(s.gpuClockMHz, -1.0);
        } else {
            QVERIFY(s.gpuMemoryTotal > 0);
            QVERIFY(s.gpuClockMHz > 0);
        }
    }

    void monitorWithoutGpuLeavesGpuUnknown()
    {
        SystemMonitor monitor(0.05);
        std::this_thread::sleep_for(std::chrono::milliseconds(120));
        const SystemSample s = monitor.latest();
        QVERIFY(s.ramBytes > 0);
        QCOMPARE(s.gpuPercent, -1.0);
        QCOMPARE(s.gpuMemoryUsed, -1.0);
    }
};

QTEST_GUILESS_MAIN(TestSystemMonitor)
#include "tst_system_monitor.moc"
