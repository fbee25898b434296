// Linear: gradients against finite differences, and a hand-computed forward.
#include <QtTest>

#include "gradcheck.h"

using namespace ts;
using namespace ts::test;

class TestOpsLinear : public QObject {
    Q_OBJECT
private slots:
    void gradients_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::addColumn<bool>("bias");
        QTest::newRow("2x3->4") << 2 << 3 << 4 << true;
        QTest::newRow("5x7->1 no bias") << 5 << 7 << 1 << false;
        QTest::newRow("1x16->9") << 1 << 16 << 9 << true;
    }
    void gradients()
    {
        QFETCH(int, rows);
        QFETCH(int, in);
        QFETCH(int, out);
        QFETCH(bool, bias);
        GradCase c{"Linear", {{"out_features", std::int64_t(out)}, {"bias", bias}}, {{Shape{rows, in}}}};
        const std::string report = gradCheck(c);
        QVERIFY2(report.empty(), report.c_str());
    }
    void rank3InputUsesLastDimension()
    {
        GradCase c{"Linear", {{"out_features", std::int64_t(3)}}, {{Shape{2, 3, 5}}}};
        const std::string report = gradCheck(c);
        QVERIFY2(report.empty(), report.c_str());
    }
    void knownValues()
    {
        // x = [[1, 2]], W = [[1, 0], [2, -1], [0.5, 0.5]], b = [0, 1, -1] -> [1, 1, 0.5]
        Tensor x = Tensor::empty(Shape{1, 2});
        x.data<float>()[0] = 1, x.data<float>()[1] = 2;
        Tensor w = Tensor::empty(Shape{3, 2});
        const float wv[] = {1, 0, 2, -1, 0.5f, 0.5f};
        std::copy(wv, wv + 6, w.data<float>());
        Tensor b = Tensor::empty(Shape{3});
        const float bv[] = {0, 1, -1};
        std::copy(bv, bv + 3, b.data<float>());
        Tensor y = runForward("Linear", {{"out_features", std::int64_t(3)}}, {x}, {w, b});
        QCOMPARE(y.shape(), Shape({1, 3}));
        QCOMPARE(y.data<float>()[0], 1.0f);
        QCOMPARE(y.data<float>()[1], 1.0f);
        QCOMPARE(y.data<float>()[2], 0.5f);
    }
};

QTEST_GUILESS_MAIN(TestOpsLinear)
#include "tst_ops_linear.moc"
