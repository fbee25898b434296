// PLACEHOLDER: replaced by the real suite.
#include <QtTest>
class TestOpsLoss : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestOpsLoss)
#include "tst_ops_loss.moc"
