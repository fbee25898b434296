// PLACEHOLDER: replaced by the real suite.
#include <QtTest>
class TestOpsNorm : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestOpsNorm)
#include "tst_ops_norm.moc"
