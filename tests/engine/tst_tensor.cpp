#include <QtTest>
#include "tensor/tensor.h"
class TestTensor : public QObject { Q_OBJECT private slots: void placeholder() { QVERIFY(true); } };
QTEST_GUILESS_MAIN(TestTensor)
#include "tst_tensor.moc"
