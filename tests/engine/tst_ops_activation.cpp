// PLACEHOLDER: replaced by the real suite.
#include <QtTest>
class TestOpsActivation : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestOpsActivation)
#include "tst_ops_activation.moc"
