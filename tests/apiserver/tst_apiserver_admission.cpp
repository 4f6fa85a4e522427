// SPDX-License-Identifier: Apache-2.0
// Admission webhooks through HTTP (issue 24): the embedded server calls a test-local HTTPS
// webhook as kube-apiserver does (k8s.io/apiserver/pkg/admission/plugin/webhook): the
// AdmissionReview v1 it sends, denials (`admission webhook "NAME" denied the request: …`, 403),
// JSONPatch mutations, `Warning: 299` headers, failurePolicy on unreachable and slow webhooks
// (`Internal error occurred: failed calling webhook …`, 500), caBundle verification, rule and
// selector matching, dry run, reinvocation.
#include "engine/testing/testapiserver.h"
#include "tests/apiserver/webhookserver.h"
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace opbench;
using namespace opbench::testing;

namespace {

const QString kMutating = QStringLiteral("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations");
const QString kValidating = QStringLiteral("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations");
const QString kConfigMaps = QStringLiteral("/api/v1/namespaces/default/configmaps");

QJsonObject configMap(const QString &name, const QJsonObject &labels = {})
{
    return QJsonObject{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
        {"metadata", QJsonObject{{"name", name}, {"labels", labels}}}, {"data", QJsonObject{{"k", "v"}}}};
}

QJsonObject rule(const QJsonArray &resources, const QJsonArray &operations = {"*"})
{
    return QJsonObject{{"operations", operations}, {"apiGroups", QJsonArray{"", "apps"}},
        {"apiVersions", QJsonArray{"v1"}}, {"resources", resources}};
}

QString messageOf(const HttpReply &r) { return r.json().value(QLatin1String("message")).toString(); }

QJsonObject requestOf(const WebhookServer::Call &c) { return c.review.value(QLatin1String("request")).toObject(); }

/// A self-signed serving certificate for the Service name hooks.system.svc (openssl CLI).
std::optional<apiserver::TlsMaterial> serviceCertificate()
{
    QTemporaryDir dir;
    const QString key = dir.filePath(QStringLiteral("svc.key"));
    const QString crt = dir.filePath(QStringLiteral("svc.crt"));
    const int rc = QProcess::execute(QStringLiteral("openssl"),
        {"req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
            "/CN=hooks.system.svc", "-addext", "subjectAltName=DNS:hooks.system.svc", "-keyout", key, "-out", crt});
    QFile k(key);
    QFile c(crt);
    if (rc != 0 || !k.open(QIODevice::ReadOnly) || !c.open(QIODevice::ReadOnly))
        return std::nullopt;
    apiserver::TlsMaterial m;
    m.serverKey = k.readAll();
    m.serverCert = c.readAll();
    m.caCert = m.serverCert;
    return m;
}

} // namespace

class TestApiServerAdmission : public QObject
{
    Q_OBJECT

    apiserver::TlsMaterial m_tls;
    WebhookServer m_hooks;
    apiserver::TlsMaterial m_serviceTls;
    WebhookServer m_serviceHooks; // reached through the service map as system/hooks
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;

    /// A webhook calling m_hooks at `path` for configmaps (any operation), with `extra` fields.
    QJsonObject hook(const QString &name, const QString &path, const QJsonObject &extra = {})
    {
        QJsonObject h{{"name", name}, {"sideEffects", "None"}, {"admissionReviewVersions", QJsonArray{"v1"}},
            {"clientConfig",
                QJsonObject{{"url", m_hooks.url(path)}, {"caBundle", QString::fromLatin1(m_tls.caCert.toBase64())}}},
            {"rules", QJsonArray{rule({"configmaps"})}}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            h.insert(it.key(), it.value());
        return h;
    }
    void addConfig(const QString &collection, const QString &name, const QJsonArray &hooks)
    {
        const QString kind = collection == kMutating ? QStringLiteral("MutatingWebhookConfiguration")
                                                     : QStringLiteral("ValidatingWebhookConfiguration");
        const HttpReply r = m_http->post(collection,
            QJsonObject{{"apiVersion", "admissionregistration.k8s.io/v1"}, {"kind", kind},
                {"metadata", QJsonObject{{"name", name}}}, {"webhooks", hooks}});
        QVERIFY2(r.code == 201, r.body.constData());
    }
    HttpReply createConfigMap(const QString &name, const QJsonObject &labels = {}, const QString &query = {})
    {
        return m_http->post(kConfigMaps + query, configMap(name, labels));
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto tls = apiserver::TlsMaterial::generate();
        QVERIFY2(tls, qPrintable(tls ? QString() : tls.error().message()));
        m_tls = *tls;
        QVERIFY(m_hooks.start(m_tls));
        auto serviceTls = serviceCertificate();
        QVERIFY(serviceTls);
        m_serviceTls = *serviceTls;
        QVERIFY(m_serviceHooks.start(m_serviceTls));
        apiserver::ApiServerOptions options = TestApiServer::plainOptions();
        options.webhookServices.insert(
            QStringLiteral("system/hooks:8443"), QStringLiteral("127.0.0.1:%1").arg(m_serviceHooks.port()));
        options.webhookMsPerSecond = 200; // timeoutSeconds: 1 waits 200 ms
        m_api = std::make_unique<TestApiServer>(options);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        m_http = std::make_unique<TestHttp>(*m_api);
    }

    void cleanup()
    {
        m_http->call("DELETE", kMutating);
        m_http->call("DELETE", kValidating);
        m_http->call("DELETE", kConfigMaps);
        m_hooks.calls.clear();
        m_serviceHooks.calls.clear();
        m_hooks.silent.clear();
        m_hooks.answer = [](const QString &, const QJsonObject &) { return QJsonObject{{"allowed", true}}; };
    }

    void shouldSendTheReviewKubeApiserverSends()
    {
        addConfig(kValidating, QStringLiteral("fields"), {hook("fields.example.com", "/validate")});
        QCOMPARE(createConfigMap(QStringLiteral("one")).code, 201);
        QCOMPARE(m_hooks.calls.size(), 1);
        const WebhookServer::Call call = m_hooks.calls.first();
        QCOMPARE(call.path, QStringLiteral("/validate?timeout=10s"));
        QCOMPARE(call.review.value(QLatin1String("apiVersion")).toString(), QStringLiteral("admission.k8s.io/v1"));
        const QJsonObject req = requestOf(call);
        QVERIFY(!req.value(QLatin1String("uid")).toString().isEmpty());
        const QJsonObject kind{{"group", ""}, {"version", "v1"}, {"kind", "ConfigMap"}};
        const QJsonObject resource{{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}};
        QCOMPARE(req.value(QLatin1String("kind")).toObject(), kind);
        QCOMPARE(req.value(QLatin1String("requestKind")).toObject(), kind);
        QCOMPARE(req.value(QLatin1String("resource")).toObject(), resource);
        QCOMPARE(req.value(QLatin1String("requestResource")).toObject(), resource);
        QCOMPARE(req.value(QLatin1String("operation")).toString(), QStringLiteral("CREATE"));
        QCOMPARE(req.value(QLatin1String("name")).toString(), QStringLiteral("one"));
        QCOMPARE(req.value(QLatin1String("namespace")).toString(), QStringLiteral("default"));
        QCOMPARE(req.value(QLatin1String("userInfo")).toObject().value(QLatin1String("username")).toString(),
            QStringLiteral("admin"));
        QCOMPARE(req.value(QLatin1String("dryRun")).toBool(), false);
        QCOMPARE(req.value(QLatin1String("options")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("CreateOptions"));
        QCOMPARE(req.value(QLatin1String("options")).toObject().value(QLatin1String("apiVersion")).toString(),
            QStringLiteral("meta.k8s.io/v1"));
        QCOMPARE(req.value(QLatin1String("object")).toObject().value(QLatin1String("data")).toObject(),
            (QJsonObject{{"k", "v"}}));
        QVERIFY(req.value(QLatin1String("oldObject")).isNull());

        QCOMPARE(m_http->del(kConfigMaps + QStringLiteral("/one")).code, 200);
        QCOMPARE(m_hooks.calls.size(), 2);
        const QJsonObject del = requestOf(m_hooks.calls.last());
        QCOMPARE(del.value(QLatin1String("operation")).toString(), QStringLiteral("DELETE"));
        QCOMPARE(del.value(QLatin1String("options")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("DeleteOptions"));
        QVERIFY(del.value(QLatin1String("object")).isNull());
        QCOMPARE(del.value(QLatin1String("oldObject"))
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("name")),
            QJsonValue(QStringLiteral("one")));
    }

    void shouldRefuseWithTheWebhooksMessage_data()
    {
        QTest::addColumn<QJsonObject>("status");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("message") << QJsonObject{{"message", "no thanks"}} << 403
                                 << "admission webhook \"deny.example.com\" denied the request: no thanks";
        QTest::newRow("code") << QJsonObject{{"message", "bad data"}, {"code", 422}, {"reason", "Invalid"}} << 422
                              << "admission webhook \"deny.example.com\" denied the request: bad data";
        QTest::newRow("nothing") << QJsonObject() << 403
                                 << "admission webhook \"deny.example.com\" denied the request without explanation";
    }

    void shouldRefuseWithTheWebhooksMessage()
    {
        QFETCH(QJsonObject, status);
        QFETCH(int, code);
        QFETCH(QString, message);
        m_hooks.answer = [status](const QString &, const QJsonObject &) {
            return QJsonObject{{"allowed", false}, {"status", status}};
        };
        addConfig(kValidating, QStringLiteral("deny"), {hook("deny.example.com", "/deny")});
        const HttpReply r = createConfigMap(QStringLiteral("denied"));
        QCOMPARE(r.code, code);
        QCOMPARE(messageOf(r), message);
        QCOMPARE(m_http->get(kConfigMaps + QStringLiteral("/denied")).code, 404);
    }

    void shouldKeepTheDenialsDetails()
    {
        // kube-apiserver's ToStatusErr keeps the webhook's Status whole (only the message is
        // prefixed), so kubectl prints `The ConfigMap "denied" is invalid: data.x: …` from its causes.
        const QJsonObject details{{"name", "denied"}, {"kind", "ConfigMap"},
            {"causes",
                QJsonArray{QJsonObject{{"reason", "FieldValueInvalid"}, {"field", "data.x"},
                    {"message", "Invalid value: \"1\": must be a word"}}}}};
        m_hooks.answer = [details](const QString &, const QJsonObject &) {
            return QJsonObject{{"allowed", false},
                {"status",
                    QJsonObject{{"code", 422}, {"reason", "Invalid"}, {"message", "bad data"}, {"details", details}}}};
        };
        addConfig(kValidating, QStringLiteral("deny"), {hook("deny.example.com", "/deny")});
        const HttpReply r = createConfigMap(QStringLiteral("denied"));
        QCOMPARE(r.code, 422);
        const QJsonObject status = r.json();
        QCOMPARE(status.value(QLatin1String("reason")).toString(), QStringLiteral("Invalid"));
        QCOMPARE(status.value(QLatin1String("details")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("ConfigMap"));
        const QJsonArray causes
            = status.value(QLatin1String("details")).toObject().value(QLatin1String("causes")).toArray();
        QCOMPARE(causes.size(), 1);
        QCOMPARE(causes.at(0).toObject().value(QLatin1String("field")).toString(), QStringLiteral("data.x"));
    }

    void shouldApplyJsonPatchAndSendWarnings()
    {
        m_hooks.answer = [](const QString &, const QJsonObject &) {
            const QByteArray patch = R"([{"op":"add","path":"/metadata/labels/mutated","value":"yes"}])";
            return QJsonObject{{"allowed", true}, {"patchType", "JSONPatch"},
                {"patch", QString::fromLatin1(patch.toBase64())}, {"warnings", QJsonArray{"label added"}}};
        };
        addConfig(kMutating, QStringLiteral("mutate"), {hook("mutate.example.com", "/mutate")});
        const HttpReply r = createConfigMap(QStringLiteral("mutated"), QJsonObject{{"app", "web"}});
        QCOMPARE(r.code, 201);
        QCOMPARE(r.header("Warning"), QByteArray("299 - \"label added\""));
        const QJsonObject labels = m_http->get(kConfigMaps + QStringLiteral("/mutated"))
                                       .json()
                                       .value(QLatin1String("metadata"))
                                       .toObject()
                                       .value(QLatin1String("labels"))
                                       .toObject();
        QCOMPARE(labels, (QJsonObject{{"app", "web"}, {"mutated", "yes"}}));
    }

    void shouldApplyFailurePolicy_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<int>("code");
        QTest::newRow("Fail") << "Fail" << 500;
        QTest::newRow("Ignore") << "Ignore" << 201;
    }

    void shouldApplyFailurePolicy()
    {
        QFETCH(QString, policy);
        QFETCH(int, code);
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const quint16 port = closed.serverPort();
        closed.close();
        QJsonObject h = hook("down.example.com", "/down", {{"failurePolicy", policy}});
        const QString url = QStringLiteral("https://127.0.0.1:%1/down").arg(port);
        h.insert("clientConfig", QJsonObject{{"url", url}});
        addConfig(kValidating, QStringLiteral("down"), {h});
        const HttpReply r = createConfigMap(QStringLiteral("unreachable"));
        QCOMPARE(r.code, code);
        if (code == 500) {
            QCOMPARE(messageOf(r),
                QStringLiteral("Internal error occurred: failed calling webhook \"down.example.com\": failed to call "
                               "webhook: Post \"%1?timeout=10s\": dial tcp 127.0.0.1:%2: connect: connection refused")
                    .arg(url)
                    .arg(port));
            QCOMPARE(r.json().value(QLatin1String("reason")).toString(), QStringLiteral("InternalError"));
        }
    }

    void shouldTimeOut()
    {
        m_hooks.silent << QStringLiteral("/slow");
        addConfig(kValidating, QStringLiteral("slow"), {hook("slow.example.com", "/slow", {{"timeoutSeconds", 1}})});
        const HttpReply r = createConfigMap(QStringLiteral("slow"));
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral("Internal error occurred: failed calling webhook \"slow.example.com\": failed to call "
                           "webhook: Post \"%1?timeout=1s\": context deadline exceeded")
                .arg(m_hooks.url(QStringLiteral("/slow"))));
    }

    void shouldVerifyTheCaBundle()
    {
        auto other = apiserver::TlsMaterial::generate();
        QVERIFY(other);
        QJsonObject h = hook("ca.example.com", "/ca");
        h.insert("clientConfig",
            QJsonObject{{"url", m_hooks.url(QStringLiteral("/ca"))},
                {"caBundle", QString::fromLatin1(other->caCert.toBase64())}});
        addConfig(kValidating, QStringLiteral("ca"), {h});
        const HttpReply r = createConfigMap(QStringLiteral("untrusted"));
        QCOMPARE(r.code, 500);
        QVERIFY2(messageOf(r).endsWith(QStringLiteral("x509: certificate signed by unknown authority")),
            qPrintable(messageOf(r)));
        QCOMPARE(m_hooks.calls.size(), 0);
    }

    void shouldFailForAnUnmappedService()
    {
        QJsonObject h = hook("svc.example.com", "/svc");
        h.insert("clientConfig",
            QJsonObject{{"service", QJsonObject{{"namespace", "system"}, {"name", "hooks"}, {"path", "/svc"}}}});
        addConfig(kValidating, QStringLiteral("svc"), {h});
        const HttpReply r = createConfigMap(QStringLiteral("nowhere"));
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral("Internal error occurred: failed calling webhook \"svc.example.com\": failed to call "
                           "webhook: Post \"https://hooks.system.svc:443/svc?timeout=10s\": service \"hooks\" not "
                           "found"));
    }

    void shouldCallAMappedService()
    {
        QJsonObject h = hook("mapped.example.com", "/svc");
        h.insert("clientConfig",
            QJsonObject{
                {"service", QJsonObject{{"namespace", "system"}, {"name", "hooks"}, {"path", "/svc"}, {"port", 8443}}},
                {"caBundle", QString::fromLatin1(m_serviceTls.caCert.toBase64())}});
        addConfig(kValidating, QStringLiteral("mapped"), {h});
        const HttpReply r = createConfigMap(QStringLiteral("mapped"));
        QVERIFY2(r.code == 201, r.body.constData());
        QCOMPARE(m_serviceHooks.calls.size(), 1);
        QCOMPARE(m_serviceHooks.calls.first().path, QStringLiteral("/svc?timeout=10s"));
    }

    void shouldAdmitAPatchAsAnUpdate()
    {
        addConfig(kValidating, QStringLiteral("patch"), {hook("patch.example.com", "/patch")});
        QCOMPARE(createConfigMap(QStringLiteral("patched")).code, 201);
        const HttpReply r = m_http->call(
            "PATCH", kConfigMaps + QStringLiteral("/patched"), R"({"data":{"k":"w"}})", "application/merge-patch+json");
        QCOMPARE(r.code, 200);
        QCOMPARE(m_hooks.calls.size(), 2);
        const QJsonObject req = requestOf(m_hooks.calls.last());
        QCOMPARE(req.value(QLatin1String("operation")).toString(), QStringLiteral("UPDATE"));
        QCOMPARE(req.value(QLatin1String("options")).toObject().value(QLatin1String("kind")).toString(),
            QStringLiteral("UpdateOptions"));
        QCOMPARE(req.value(QLatin1String("object")).toObject().value(QLatin1String("data")).toObject(),
            (QJsonObject{{"k", "w"}}));
        QCOMPARE(req.value(QLatin1String("oldObject")).toObject().value(QLatin1String("data")).toObject(),
            (QJsonObject{{"k", "v"}}));
    }

    void shouldReapplyAPatchAfterAConflictingWrite_data()
    {
        QTest::addColumn<QString>("collection");
        QTest::newRow("validating webhook (the write conflicts)") << kValidating;
        QTest::newRow("mutating webhook (the dry-run write conflicts)") << kMutating;
    }

    void shouldReapplyAPatchAfterAConflictingWrite()
    {
        // While the webhook decides on a merge patch, another client changes the ConfigMap. The
        // patch named no resourceVersion, so kube-apiserver applies it again to the latest object
        // (and admits it again) instead of answering 409 Conflict.
        QFETCH(QString, collection);
        addConfig(collection, QStringLiteral("race"), {hook("race.example.com", "/race")});
        QCOMPARE(createConfigMap(QStringLiteral("raced")).code, 201);
        bool interfered = false;
        m_hooks.answer = [this, &interfered](const QString &, const QJsonObject &review) {
            const QJsonObject req = review.value(QLatin1String("request")).toObject();
            const QJsonObject data
                = req.value(QLatin1String("object")).toObject().value(QLatin1String("data")).toObject();
            if (!interfered && data.value(QLatin1String("k")).toString() == QLatin1String("patched")) {
                interfered = true; // the other write: its own review is answered by this same handler
                const HttpReply other = m_http->call("PATCH", kConfigMaps + QStringLiteral("/raced"),
                    R"({"metadata":{"labels":{"other":"write"}}})", "application/merge-patch+json");
                if (other.code != 200)
                    return QJsonObject{
                        {"allowed", false}, {"status", QJsonObject{{"message", "the other write failed"}}}};
            }
            return QJsonObject{{"allowed", true}};
        };
        const HttpReply r = m_http->call("PATCH", kConfigMaps + QStringLiteral("/raced"), R"({"data":{"k":"patched"}})",
            "application/merge-patch+json");
        QVERIFY(interfered);
        QVERIFY2(r.code == 200, r.body.constData());
        const QJsonObject stored = m_http->get(kConfigMaps + QStringLiteral("/raced")).json();
        QCOMPARE(stored.value(QLatin1String("data")).toObject(), (QJsonObject{{"k", "patched"}}));
        QCOMPARE(stored.value(QLatin1String("metadata")).toObject().value(QLatin1String("labels")).toObject(),
            (QJsonObject{{"other", "write"}}));
        // admitted again on the latest object: the create's review, the patch's first, the other
        // write's, the retry's
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/race")), 4);

        // A patch that names the resourceVersion it read still conflicts.
        const QString rv
            = stored.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
        QCOMPARE(m_http
                     ->call("PATCH", kConfigMaps + QStringLiteral("/raced"), R"({"data":{"k":"x"}})",
                         "application/merge-patch+json")
                     .code,
            200);
        const HttpReply stale = m_http->call("PATCH", kConfigMaps + QStringLiteral("/raced"),
            QStringLiteral(R"({"metadata":{"resourceVersion":"%1"},"data":{"k":"y"}})").arg(rv).toUtf8(),
            "application/merge-patch+json");
        QCOMPARE(stale.code, 409);
    }

    void shouldMatchRulesAndSelectors_data()
    {
        QTest::addColumn<QJsonObject>("extra");
        QTest::addColumn<QJsonObject>("labels");
        QTest::addColumn<bool>("called");
        QTest::newRow("resource") << QJsonObject() << QJsonObject() << true;
        QTest::newRow("other resource") << QJsonObject{{"rules", QJsonArray{rule({"secrets"})}}} << QJsonObject()
                                        << false;
        QTest::newRow("wildcard") << QJsonObject{{"rules", QJsonArray{rule({"*"})}}} << QJsonObject() << true;
        QTest::newRow("subresource only")
            << QJsonObject{{"rules", QJsonArray{rule({"*/status"})}}} << QJsonObject() << false;
        QTest::newRow("other operation") << QJsonObject{{"rules", QJsonArray{rule({"configmaps"}, {"UPDATE"})}}}
                                         << QJsonObject() << false;
        QTest::newRow("cluster scope") << QJsonObject{{"rules",
            QJsonArray{QJsonObject{{"operations", QJsonArray{"*"}}, {"apiGroups", QJsonArray{""}},
                {"apiVersions", QJsonArray{"*"}}, {"resources", QJsonArray{"configmaps"}}, {"scope", "Cluster"}}}}}
                                       << QJsonObject() << false;
        const QJsonObject objectSelector{{"objectSelector", QJsonObject{{"matchLabels", QJsonObject{{"hook", "on"}}}}}};
        QTest::newRow("object selector matches") << objectSelector << QJsonObject{{"hook", "on"}} << true;
        QTest::newRow("object selector misses") << objectSelector << QJsonObject{{"hook", "off"}} << false;
        QTest::newRow("namespace selector matches") << QJsonObject{{"namespaceSelector",
            QJsonObject{{"matchLabels", QJsonObject{{"kubernetes.io/metadata.name", "default"}}}}}}
                                                    << QJsonObject() << true;
        QTest::newRow("namespace selector misses") << QJsonObject{{"namespaceSelector",
            QJsonObject{{"matchExpressions",
                QJsonArray{QJsonObject{{"key", "kubernetes.io/metadata.name"}, {"operator", "NotIn"},
                    {"values", QJsonArray{"default"}}}}}}}}
                                                   << QJsonObject() << false;
    }

    void shouldMatchRulesAndSelectors()
    {
        QFETCH(QJsonObject, extra);
        QFETCH(QJsonObject, labels);
        QFETCH(bool, called);
        addConfig(kValidating, QStringLiteral("match"), {hook("match.example.com", "/match", extra)});
        QCOMPARE(createConfigMap(QStringLiteral("matched"), labels).code, 201);
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/match")), called ? 1 : 0);
    }

    void shouldMatchStatusSubresource()
    {
        addConfig(kValidating, QStringLiteral("status"),
            {hook("status.example.com", "/status", {{"rules", QJsonArray{rule({"deployments/status"})}}})});
        const QString deploys = QStringLiteral("/apis/apps/v1/namespaces/default/deployments");
        const QJsonObject labels{{"app", "web"}};
        QJsonObject d{{"apiVersion", "apps/v1"}, {"kind", "Deployment"}, {"metadata", QJsonObject{{"name", "web"}}},
            {"spec",
                QJsonObject{{"selector", QJsonObject{{"matchLabels", labels}}},
                    {"template",
                        QJsonObject{{"metadata", QJsonObject{{"labels", labels}}},
                            {"spec",
                                QJsonObject{
                                    {"containers", QJsonArray{QJsonObject{{"name", "web"}, {"image", "nginx"}}}}}}}}}}};
        const HttpReply created = m_http->post(deploys, d);
        QCOMPARE(created.code, 201);
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/status")), 0);
        QJsonObject live = created.json();
        live.insert("status", QJsonObject{{"observedGeneration", 1}});
        QJsonObject meta = live.value(QLatin1String("metadata")).toObject();
        meta.remove(QLatin1String("resourceVersion")); // the simulator writes status too
        live.insert("metadata", meta);
        QCOMPARE(m_http->put(deploys + QStringLiteral("/web/status"), live).code, 200);
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/status")), 1);
        const QJsonObject req = requestOf(m_hooks.calls.last());
        QCOMPARE(req.value(QLatin1String("subResource")).toString(), QStringLiteral("status"));
        QCOMPARE(req.value(QLatin1String("operation")).toString(), QStringLiteral("UPDATE"));
        QVERIFY(req.value(QLatin1String("oldObject")).isObject());
        m_http->del(deploys + QStringLiteral("/web"));
    }

    void shouldSendDryRun()
    {
        addConfig(
            kValidating, QStringLiteral("dry"), {hook("dry.example.com", "/dry", {{"sideEffects", "NoneOnDryRun"}})});
        QCOMPARE(createConfigMap(QStringLiteral("dry"), {}, QStringLiteral("?dryRun=All")).code, 201);
        QCOMPARE(m_hooks.calls.size(), 1);
        const QJsonObject req = requestOf(m_hooks.calls.first());
        QCOMPARE(req.value(QLatin1String("dryRun")).toBool(), true);
        QCOMPARE(
            req.value(QLatin1String("options")).toObject().value(QLatin1String("dryRun")).toArray(), QJsonArray{"All"});
        QCOMPARE(m_http->get(kConfigMaps + QStringLiteral("/dry")).code, 404);
    }

    void shouldReinvokeWhenNeeded()
    {
        m_hooks.answer = [](const QString &path, const QJsonObject &) {
            if (!path.startsWith(QLatin1String("/second")))
                return QJsonObject{{"allowed", true}};
            const QByteArray patch = R"([{"op":"add","path":"/metadata/labels/second","value":"yes"}])";
            return QJsonObject{
                {"allowed", true}, {"patchType", "JSONPatch"}, {"patch", QString::fromLatin1(patch.toBase64())}};
        };
        addConfig(kMutating, QStringLiteral("reinvoke"),
            {hook("first.example.com", "/first", {{"reinvocationPolicy", "IfNeeded"}}),
                hook("second.example.com", "/second")});
        QCOMPARE(createConfigMap(QStringLiteral("again"), QJsonObject{{"app", "web"}}).code, 201);
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/first")), 2);
        QCOMPARE(m_hooks.callsTo(QStringLiteral("/second")), 1);
        const QJsonObject second = requestOf(m_hooks.calls.last());
        QCOMPARE(second.value(QLatin1String("object"))
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("labels"))
                     .toObject()
                     .value(QLatin1String("second")),
            QJsonValue(QStringLiteral("yes")));
    }
};

QTEST_GUILESS_MAIN(TestApiServerAdmission)
#include "tst_apiserver_admission.moc"
