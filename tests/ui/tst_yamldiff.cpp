// SPDX-License-Identifier: Apache-2.0
// Readable diffs (ui/yamldiff.h): a trace's diff entries become a YAML line diff with their
// parent keys, noise fields hidden by default, never the raw {"new","old","path"} JSON.
#include "ui/yamldiff.h"

#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_YamlDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldShowAConditionChangeAsYamlWithItsParents()
    {
        const QList<DiffEntry> entries{
            {QStringLiteral("status.conditions[0].status"), QJsonValue(QStringLiteral("True")),
                QJsonValue(QStringLiteral("False"))},
            {QStringLiteral("metadata.resourceVersion"), QJsonValue(QStringLiteral("41")),
                QJsonValue(QStringLiteral("42"))},
        };
        const QStringList hidden = entriesYamlDiff(entries, true);
        QCOMPARE(hidden,
            (QStringList{QStringLiteral("  status:"), QStringLiteral("    conditions:"),
                QStringLiteral("-     - status: \"True\""), QStringLiteral("+     - status: \"False\"")}));
        const QString shown = entriesYamlDiff(entries, false).join(u'\n');
        QVERIFY2(shown.contains(QStringLiteral("-   resourceVersion: \"41\"")), qPrintable(shown));
    }

    void shouldKeepDottedLabelKeysWholeAndPadEarlierItems()
    {
        const QList<DiffEntry> entries{
            {QStringLiteral("metadata.labels.app.kubernetes.io/name"), QJsonValue(QJsonValue::Undefined),
                QJsonValue(QStringLiteral("web"))},
            {QStringLiteral("spec.template.spec.containers[1].image"), QJsonValue(QStringLiteral("nginx:1.25")),
                QJsonValue(QStringLiteral("nginx:1.26"))},
        };
        const QStringList lines = entriesYamlDiff(entries, true);
        const QString diff = lines.join(u'\n');
        QVERIFY2(lines.contains(QStringLiteral("+     app.kubernetes.io/name: web")), qPrintable(diff));
        QVERIFY2(!diff.contains(QStringLiteral("name: ~")), qPrintable(diff));       // added, not changed from null
        QVERIFY2(lines.contains(QStringLiteral("          - …")), qPrintable(diff)); // the item before: context
        QVERIFY2(lines.contains(QStringLiteral("+         - image: nginx:1.26")), qPrintable(diff));
    }

    void shouldSayWhenOnlyNoiseChanged()
    {
        TraceCall c;
        c.verb = QStringLiteral("update");
        c.gvk = {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")};
        c.key = QStringLiteral("default/web");
        const auto meta = [](int generation) {
            return QJsonObject{{QStringLiteral("metadata"),
                QJsonObject{
                    {QStringLiteral("name"), QStringLiteral("web")}, {QStringLiteral("generation"), generation}}}};
        };
        c.diffBefore = Object::fromJson(meta(2));
        c.diffAfter = Object::fromJson(meta(3));
        c.hasDiff = true;
        const QString text = callsYamlDiff({c}, true);
        QVERIFY2(text.startsWith(QStringLiteral("# update Deployment default/web: only")), qPrintable(text));
        QVERIFY(callsYamlDiff({c}, false).contains(QStringLiteral("generation: 3")));
        QCOMPARE(callsYamlDiff({}, true), QString());
    }
};

QTEST_GUILESS_MAIN(tst_YamlDiff)
#include "tst_yamldiff.moc"
