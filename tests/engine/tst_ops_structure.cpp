// PLACEHOLDER: replaced by the real suite.
#include <QtTest>
class TestOpsStructure : public QObject { Q_OBJECT };
QTEST_GUILESS_MAIN(TestOpsStructure)
#include "tst_ops_structure.moc"
