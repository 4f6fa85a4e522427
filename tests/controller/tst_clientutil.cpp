// SPDX-License-Identifier: Apache-2.0
#include <QTest>
class tst_Placeholder : public QObject
{
    Q_OBJECT
};
QTEST_GUILESS_MAIN(tst_Placeholder)
#include "tst_clientutil.moc"
