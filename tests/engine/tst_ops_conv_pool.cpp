// PLACEHOLDER: replaced by the real suite.
#include <QtTest>
class TestOpsConvPool : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestOpsConvPool)
#include "tst_ops_conv_pool.moc"
