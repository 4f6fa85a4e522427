// SPDX-License-Identifier: Apache-2.0
// opbench-init's --owns parsing and template rendering (app/init_scaffold.*), on the templates in
// resources/scaffold: every flag combination renders with nothing left unexpanded and with the
// child, RBAC rule and test of each owned kind. `create webhook` (app/init_webhook.*) on a
// scaffold written to a temporary folder: the files and edits of each flag combination, and every
// refusal leaving the project as it was. Building and running the rendered projects is
// tests/sdk/sdk_roundtrip.sh's job.
#include "app/init_scaffold.h"
#include "app/init_webhook.h"
#include "engine/api/yamlcodec.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
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

    void shouldAddTheWebhooksAskedFor_data()
    {
        QTest::addColumn<bool>("defaulting");
        QTest::addColumn<bool>("validation");
        QTest::addColumn<bool>("conversion");
        QTest::newRow("defaulting") << true << false << false;
        QTest::newRow("validation") << false << true << false;
        QTest::newRow("conversion") << false << false << true;
        QTest::newRow("defaulting+validation") << true << true << false;
        QTest::newRow("all three") << true << true << true;
    }
    void shouldAddTheWebhooksAskedFor()
    {
        QFETCH(bool, defaulting);
        QFETCH(bool, validation);
        QFETCH(bool, conversion);
        QTemporaryDir dir;
        scaffold(dir.path());
        const WebhookRequest r{
            dir.path(), "shop", "v1", "Widget", conversion ? "v2" : "", defaulting, validation, conversion};
        Project p;
        QString error;
        const QList<PlannedFile> plan = planWebhook(r, &p, kWebhookTemplates, &error);
        QVERIFY2(!plan.isEmpty(), qPrintable(error));
        QVERIFY2(writePlan(dir.path(), plan, &error), qPrintable(error));
        QCOMPARE(p.group, QString("shop.demo.io"));
        QCOMPARE(p.plural, QString("widgets"));
        QCOMPARE(p.ns, QString("demo"));
        for (const PlannedFile &f : plan) {
            const QRegularExpressionMatch left = QRegularExpression(QStringLiteral("@[A-Za-z_ !]+@")).match(f.content);
            QVERIFY2(!left.hasMatch(), qPrintable(f.path + ": " + left.captured()));
        }

        const QString webhook = read(dir.path(), "src/widget_webhook.cpp");
        QCOMPARE(webhook.contains(".withDefaulter(std::make_shared<WidgetDefaulter>())"), defaulting);
        QCOMPARE(webhook.contains(".withValidator(std::make_shared<WidgetValidator>())"), validation);
        QCOMPARE(webhook.contains(".withConversion<WidgetV2>()"), conversion);
        QVERIFY(webhook.contains("opbench::WebhookBuilder(manager)\n        .forKind<Widget>()"));
        QCOMPARE(read(dir.path(), "src/widget_webhook.h").contains("class WidgetDefaulter final"), defaulting);
        const QString op = read(dir.path(), "src/operator.cpp");
        QVERIFY(op.contains("#include \"widget_webhook.h\""));
        // OperatorDefinition::webhooks: the SDK serves them, and registers them with an embedded cluster
        QVERIFY(op.contains("    def.setup = setupWidgetController;\n    def.webhooks = setupWidgetWebhook;"));
        QCOMPARE(op.contains("def.crds.append(widgetCrd());"), conversion);
        QCOMPARE(op.contains("opbench::addKind<Widget>(def);"), !conversion);
        const QString cmake = read(dir.path(), "CMakeLists.txt");
        QVERIFY(cmake.contains("src/widget_webhook.h src/widget_webhook.cpp"));
        QVERIFY(cmake.contains("add_test(NAME tst_widget_webhook COMMAND tst_widget_webhook)"));
        const QString test = read(dir.path(), "tests/tst_widget_webhook.cpp");
        QCOMPARE(test.contains("shouldDefaultTheTierThroughTheApiServer"), defaulting);
        QCOMPARE(test.contains("shouldRefuseAnUnknownTierThroughTheApiServer"), validation);
        QCOMPARE(test.contains("checkRoundTrip(WidgetV2("), conversion);
        // The tests through the API server always run: a harness that cannot start fails them all
        QVERIFY(test.contains("void initTestCase() { QVERIFY2(env->ok(), qPrintable(env->errorString())); }"));
        QVERIFY(!test.contains("QSKIP"));
        QCOMPARE(QFile::exists(dir.filePath("src/widget_v2.h")), conversion);
        QCOMPARE(read(dir.path(), "src/widget.h").contains("public opbench::Hub"), conversion);

        checkClusterManifests(dir.path(), defaulting, validation, conversion);
    }

    void shouldRefuseAndLeaveTheProjectAsItWas_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("says");
        QTest::newRow("no project") << "empty"
                                    << "Widget"
                                    << "shop"
                                    << "v1"
                                    << "is not a project scaffolded by opbench-init";
        QTest::newRow("no such kind") << ""
                                      << "Gadget"
                                      << "shop"
                                      << "v1"
                                      << "has no kind Gadget (no src/gadget.h declaring it): its kinds are Widget "
                                         "(shop.demo.io/v1, src/widget.h)";
        QTest::newRow("another group") << ""
                                       << "Widget"
                                       << "store"
                                       << "v1"
                                       << "--group store does not match kind Widget of the project in";
        QTest::newRow("another version") << ""
                                         << "Widget"
                                         << "shop"
                                         << "v1beta1"
                                         << "it is served at v1 (src/widget.h)";
        QTest::newRow("webhooks there") << "again"
                                        << "Widget"
                                        << "shop"
                                        << "v1"
                                        << "src/widget_webhook.h already exists in";
        QTest::newRow("spoke there") << "spoke"
                                     << "Widget"
                                     << "shop"
                                     << "v1"
                                     << "src/widget_v2.h already exists in";
        QTest::newRow("setup edited") << "edited"
                                      << "Widget"
                                      << "shop"
                                      << "v1"
                                      << "cannot wire the webhooks into src/operator.cpp: it does not hold the line "
                                         "\"def.setup = setupWidgetController;\"";
    }
    void shouldRefuseAndLeaveTheProjectAsItWas()
    {
        QFETCH(QString, setup);
        QFETCH(QString, kind);
        QFETCH(QString, group);
        QFETCH(QString, version);
        QFETCH(QString, says);
        QTemporaryDir dir;
        if (setup != "empty")
            scaffold(dir.path());
        QString error;
        Project p;
        if (setup == "again") {
            const WebhookRequest first{dir.path(), "shop", "v1", "Widget", "", true, false, false};
            QVERIFY2(
                writePlan(dir.path(), planWebhook(first, &p, kWebhookTemplates, &error), &error), qPrintable(error));
        } else if (setup == "spoke") {
            QFile f(dir.filePath("src/widget_v2.h"));
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write("// mine\n") > 0);
        } else if (setup == "edited") {
            QString op = read(dir.path(), "src/operator.cpp");
            op.replace("def.setup = setupWidgetController;", "def.setup = mySetup;");
            QFile f(dir.filePath("src/operator.cpp"));
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(op.toUtf8()) > 0);
        }
        const QHash<QString, QByteArray> before = snapshot(dir.path());
        const WebhookRequest r{dir.path(), group, version, kind, "v2", true, true, true};
        const QList<PlannedFile> plan = planWebhook(r, &p, kWebhookTemplates, &error);
        QVERIFY(plan.isEmpty());
        QVERIFY2(error.contains(says), qPrintable(error));
        QCOMPARE(snapshot(dir.path()), before);
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

    static constexpr const char *kWebhookTemplates = OPBENCH_SOURCE_DIR "/resources/scaffold/webhook/";

    /// What `opbench-init --domain demo.io --group shop --version v1 --kind Widget DIR` writes.
    static void scaffold(const QString &dir)
    {
        const Project p{"demo", "Widget", "widget", "widgets", "shop.demo.io", "v1", "demo", defaultOwns()};
        for (const auto &[templ, out] : scaffoldFiles(p)) {
            const QString path = QDir(dir).filePath(out);
            QDir().mkpath(QFileInfo(path).absolutePath());
            QFile f(path);
            if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly))
                qFatal("cannot write %s", qPrintable(path));
            f.write(renderFile(templ, p).toUtf8());
        }
    }
    static QString read(const QString &dir, const QString &path)
    {
        QFile f(QDir(dir).filePath(path));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(f.fileName()));
        return QString::fromUtf8(f.readAll());
    }
    /// Every file under `dir` with its content.
    static QHash<QString, QByteArray> snapshot(const QString &dir)
    {
        QHash<QString, QByteArray> out;
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            if (f.open(QIODevice::ReadOnly))
                out.insert(f.fileName(), f.readAll());
        }
        return out;
    }
    /// config/webhook, config/certmanager and the patches: parsed, named consistently, annotated
    /// for cert-manager's CA injector, and at kubebuilder's paths.
    static void checkClusterManifests(const QString &dir, bool defaulting, bool validation, bool conversion)
    {
        const QString inject = "widget-system/widget-serving-cert";
        QList<QJsonObject> docs;
        for (const char *file :
            {"config/webhook/service.yaml", "config/certmanager/certificate.yaml", "config/webhook/manifests.yaml"}) {
            if (!QFile::exists(QDir(dir).filePath(file)))
                continue;
            const opbench::Expected<QList<QJsonObject>> parsed = opbench::yamlToJson(read(dir, file).toUtf8());
            QVERIFY2(parsed, qPrintable(QString(file) + ": " + (parsed ? QString() : parsed.error().message())));
            docs << *parsed;
        }
        QHash<QString, QJsonObject> byKind;
        for (const QJsonObject &d : std::as_const(docs))
            byKind.insert(d.value("kind").toString(), d);
        QCOMPARE(byKind.value("Service").value("metadata")["name"].toString(), QString("widget-webhook-service"));
        QCOMPARE(byKind.value("Certificate").value("spec")["secretName"].toString(), QString("webhook-server-cert"));
        QCOMPARE(byKind.value("Certificate").value("spec")["dnsNames"][0].toString(),
            QString("widget-webhook-service.widget-system.svc"));
        QCOMPARE(byKind.contains("Issuer"), true);
        const QList<std::tuple<QString, bool, QString>> configs
            = {{"MutatingWebhookConfiguration", defaulting, "/mutate-shop-demo-io-v1-widget"},
                {"ValidatingWebhookConfiguration", validation, "/validate-shop-demo-io-v1-widget"}};
        for (const auto &[kind, wanted, path] : configs) {
            QCOMPARE(byKind.contains(kind), wanted);
            if (!wanted)
                continue;
            const QJsonObject c = byKind.value(kind);
            QCOMPARE(c.value("metadata")["annotations"]["cert-manager.io/inject-ca-from"].toString(), inject);
            const QJsonObject hook = c.value("webhooks")[0].toObject();
            QCOMPARE(hook.value("clientConfig")["service"]["path"].toString(), path);
            QCOMPARE(hook.value("clientConfig")["service"]["name"].toString(), QString("widget-webhook-service"));
            QCOMPARE(hook.value("sideEffects").toString(), QString("None"));
            QCOMPARE(hook.value("admissionReviewVersions").toArray(), QJsonArray{"v1"});
            QCOMPARE(hook.value("rules")[0]["resources"].toArray(), QJsonArray{"widgets"});
        }
        QCOMPARE(QFile::exists(QDir(dir).filePath("config/crd/patches/webhook_in_widgets.yaml")), conversion);
        if (conversion) {
            const opbench::Expected<QList<QJsonObject>> patch
                = opbench::yamlToJson(read(dir, "config/crd/patches/webhook_in_widgets.yaml").toUtf8());
            QVERIFY(patch && patch->size() == 1);
            const QJsonObject c = patch->first();
            QCOMPARE(c.value("metadata")["annotations"]["cert-manager.io/inject-ca-from"].toString(), inject);
            QCOMPARE(c.value("spec")["conversion"]["strategy"].toString(), QString("Webhook"));
            QCOMPARE(c.value("spec")["conversion"]["webhook"]["clientConfig"]["service"]["path"].toString(),
                QString("/convert"));
        }
        QVERIFY(read(dir, "config/manager/manager_webhook_patch.yaml").contains("secretName: webhook-server-cert"));
    }
};

QTEST_GUILESS_MAIN(tst_InitScaffold)
#include "tst_initscaffold.moc"
