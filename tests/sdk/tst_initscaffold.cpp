// SPDX-License-Identifier: Apache-2.0
// opbench-init's --owns parsing and template rendering (app/init_scaffold.*), on the templates in
// resources/scaffold: every flag combination renders with nothing left unexpanded and with the
// child, RBAC rule and test of each owned kind. Building and running the rendered projects is
// tests/sdk/sdk_roundtrip.sh's job.
#include "app/init_scaffold.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace opbench::init;

class tst_InitScaffold : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldAcceptTheServedBuiltinKindsInEachSpelling()
    {
        QString error;
        for (const char *value : {"apps/v1/Deployment", "v1/Service", "core/v1/Service", "v1/ConfigMap", "v1/Secret",
                 "core/v1/ServiceAccount"}) {
            const OwnedKind *k = parseOwns(QString::fromLatin1(value), &error);
            QVERIFY2(k, qPrintable(error));
            QCOMPARE(k->kind(), QString::fromLatin1(value).section(u'/', -1));
        }
        QCOMPARE(parseOwns("core/v1/Service", &error), parseOwns("v1/Service", &error));
        QCOMPARE(defaultOwns().size(), 1);
        QCOMPARE(defaultOwns().first()->kind(), QString("ConfigMap"));
    }

    void shouldRefuseNamingTheFlagTheValueAndTheKinds_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("says");
        QTest::newRow("no typed view") << "apps/v1/DaemonSet"
                                       << "no typed view for DaemonSet; the kinds it can own are apps/v1/Deployment, "
                                          "v1/Service, v1/ConfigMap, v1/Secret, v1/ServiceAccount";
        QTest::newRow("wrong group") << "v1/Deployment"
                                     << "Deployment is apps/v1/Deployment";
        QTest::newRow("not served") << "apps/v1/StatefulSet"
                                    << "does not serve statefulsets";
        QTest::newRow("no group/version") << "Deployment"
                                          << "is not GROUP/VERSION/KIND";
        QTest::newRow("too many parts") << "a/b/c/d"
                                        << "is not GROUP/VERSION/KIND";
        QTest::newRow("empty") << ""
                               << "is not GROUP/VERSION/KIND";
    }
    void shouldRefuseNamingTheFlagTheValueAndTheKinds()
    {
        QFETCH(QString, value);
        QFETCH(QString, says);
        QString error;
        QVERIFY(!parseOwns(value, &error));
        QVERIFY2(error.startsWith(QStringLiteral("--owns \"%1\"").arg(value)), qPrintable(error));
        QVERIFY2(error.contains(says), qPrintable(error));
    }

    void shouldRenderEveryCombination_data()
    {
        QTest::addColumn<QStringList>("owns");
        QTest::addColumn<bool>("finalizer");
        QTest::addColumn<bool>("conditions");
        const QList<QStringList> kindSets
            = {{}, {"apps/v1/Deployment"}, {"v1/Service"}, {"v1/Secret"}, {"v1/ServiceAccount"},
                {"v1/ConfigMap", "v1/Secret", "v1/ServiceAccount", "apps/v1/Deployment", "v1/Service"}};
        for (const QStringList &owns : kindSets)
            for (const bool finalizer : {false, true})
                for (const bool conditions : {false, true})
                    QTest::addRow("%s%s%s", owns.isEmpty() ? "default" : qPrintable(owns.join(u'+')),
                        finalizer ? " finalizer" : "", conditions ? " conditions" : "")
                        << owns << finalizer << conditions;
    }
    void shouldRenderEveryCombination()
    {
        QFETCH(QStringList, owns);
        QFETCH(bool, finalizer);
        QFETCH(bool, conditions);
        Project p{"demo", "Widget", "widget", "widgets", "shop.demo.io", "v1", "demo", {}, finalizer, conditions};
        QString error;
        for (const QString &value : owns) {
            p.owns << parseOwns(value, &error);
            QVERIFY2(p.owns.last(), qPrintable(error));
        }
        if (p.owns.isEmpty())
            p.owns = defaultOwns();

        const QStringList templates
            = QDir(QStringLiteral(OPBENCH_SOURCE_DIR "/resources/scaffold")).entryList({"*.in"});
        QVERIFY(templates.size() >= 14);
        for (const QString &name : templates)
            renderFile(name, p);
        const QString controller = renderFile("controller.cpp.in", p);
        const QString rbac = renderFile("rbac.yaml.in", p);
        const QString test = renderFile("test.cpp.in", p);
        const QString type = renderFile("type.h.in", p);
        for (const OwnedKind *k : std::as_const(p.owns)) {
            QVERIFY(controller.contains(QStringLiteral(".owns<%1>()").arg(k->kind())));
            QVERIFY(controller.contains(QStringLiteral("%1(req.namespaceName, req.name)").arg(k->kind())));
            QVERIFY(rbac.contains(QStringLiteral("  resources: [\"%1\"]\n  verbs: [\"get\", \"list\", \"watch\", "
                                                 "\"create\", \"update\", \"patch\", \"delete\"]")
                                      .arg(k->info().resource)));
            QVERIFY(test.contains(QStringLiteral("QVERIFY(owned<%1>(\"first\"));").arg(k->kind())));
        }
        QCOMPARE(controller.count(QStringLiteral("setControllerReference(*cr, ")), p.owns.size());
        QCOMPARE(controller.contains("kFinalizer"), finalizer);
        QCOMPARE(rbac.contains("widgets/finalizers"), finalizer);
        QCOMPARE(test.contains("shouldCleanUpAndReleaseTheFinalizerOnDeletion"), finalizer);
        QCOMPARE(type.contains("QList<opbench::Condition> conditions;"), conditions);
        QCOMPARE(type.contains("QString phase;"), !conditions);
        QCOMPARE(controller.contains("setStatusCondition(status.conditions, Condition{\"Available\""), conditions);
        QCOMPARE(test.contains("Available True"), conditions);
        QCOMPARE(controller.contains("dep->object.isStatusConditionTrue(\"Available\")"),
            conditions && owns.contains("apps/v1/Deployment"));
    }

    void shouldDropTheRbacRuleOfTheDefaultConfigMapWhenOtherKindsAreOwned()
    {
        QString error;
        Project p{
            "demo", "Widget", "widget", "widgets", "shop.demo.io", "v1", "demo", {parseOwns("v1/Service", &error)}};
        QVERIFY(!renderFile("rbac.yaml.in", p).contains("configmaps"));
        QVERIFY(!renderFile("controller.cpp.in", p).contains("ConfigMap"));
    }

private:
    /// Renders one template; fails the test when anything is left unexpanded.
    static QString renderFile(const QString &name, const Project &p)
    {
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/resources/scaffold/") + name);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(name));
        QString out = render(f.readAll(), p);
        const QRegularExpressionMatch left = QRegularExpression(QStringLiteral("@[A-Za-z_ !]+@")).match(out);
        if (left.hasMatch())
            qFatal("%s: %s is left in the output", qPrintable(name), qPrintable(left.captured()));
        return out;
    }
};

QTEST_GUILESS_MAIN(tst_InitScaffold)
#include "tst_initscaffold.moc"
