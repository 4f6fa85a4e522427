// SPDX-License-Identifier: Apache-2.0
// CRD conversion webhooks through HTTP (issue 24): a CRD with `conversion: {strategy: Webhook}`
// served at v1alpha1 (storage; spec.image "repo:tag") and v1beta1 (spec.image {repository, tag}),
// converted by a test-local HTTPS webhook as kube-apiserver converts
// (apiextensions-apiserver/pkg/apiserver/conversion/webhook_converter.go): the ConversionReview v1
// it sends, get/list/watch at the other version, writes stored converted, no call at the same
// version, failures answered 500 with upstream's wording, and spec.conversion validation (422).
#include "engine/apiserver/admission/conversionwebhook.h"
#include "engine/apiserver/apiserver.h"
#include "engine/testing/testapiserver.h"
#include "tests/apiserver/webhookserver.h"
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QTcpServer>
#include <QtTest>

using namespace opbench;
using namespace opbench::testing;

namespace {

const QString kCrds = QStringLiteral("/apis/apiextensions.k8s.io/v1/customresourcedefinitions");
const QString kAlpha = QStringLiteral("/apis/conv.example.com/v1alpha1/namespaces/default/widgets");
const QString kBeta = QStringLiteral("/apis/conv.example.com/v1beta1/namespaces/default/widgets");

QJsonObject version(const QString &name, bool storage, const QJsonObject &image)
{
    const QJsonObject integer{{"type", "integer"}};
    const QJsonObject spec{{"type", "object"}, {"properties", QJsonObject{{"image", image}, {"replicas", integer}}}};
    const QJsonObject status{{"type", "object"}, {"properties", QJsonObject{{"replicas", integer}}}};
    const QJsonObject scale{{"specReplicasPath", ".spec.replicas"}, {"statusReplicasPath", ".status.replicas"}};
    return QJsonObject{{"name", name}, {"served", true}, {"storage", storage},
        {"subresources", QJsonObject{{"status", QJsonObject()}, {"scale", scale}}},
        {"schema",
            QJsonObject{{"openAPIV3Schema",
                QJsonObject{{"type", "object"}, {"properties", QJsonObject{{"spec", spec}, {"status", status}}}}}}}};
}

QJsonObject crd(const QString &plural, const QString &kind, const QJsonObject &conversion)
{
    const QJsonObject imageObject{{"type", "object"},
        {"properties",
            QJsonObject{{"repository", QJsonObject{{"type", "string"}}}, {"tag", QJsonObject{{"type", "string"}}}}}};
    return QJsonObject{{"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "CustomResourceDefinition"},
        {"metadata", QJsonObject{{"name", plural + QStringLiteral(".conv.example.com")}}},
        {"spec",
            QJsonObject{{"group", "conv.example.com"}, {"scope", "Namespaced"},
                {"names", QJsonObject{{"plural", plural}, {"kind", kind}}},
                {"versions",
                    QJsonArray{version("v1alpha1", true, QJsonObject{{"type", "string"}}),
                        version("v1beta1", false, imageObject)}},
                {"conversion", conversion}}}};
}

QJsonObject widget(const QString &name, const QString &image)
{
    return QJsonObject{{"apiVersion", "conv.example.com/v1alpha1"}, {"kind", "Widget"},
        {"metadata", QJsonObject{{"name", name}, {"namespace", "default"}}}, {"spec", QJsonObject{{"image", image}}}};
}

/// The webhook's conversion: "repo:tag" (v1alpha1) ↔ {repository, tag} (v1beta1).
QJsonObject convert(QJsonObject o, const QString &desired)
{
    QJsonObject spec = o.value(QLatin1String("spec")).toObject();
    const QJsonValue image = spec.value(QLatin1String("image"));
    if (desired.endsWith(QLatin1String("v1beta1")) && image.isString())
        spec.insert(QStringLiteral("image"),
            QJsonObject{
                {"repository", image.toString().section(u':', 0, 0)}, {"tag", image.toString().section(u':', 1)}});
    else if (image.isObject())
        spec.insert(QStringLiteral("image"),
            image.toObject().value(QLatin1String("repository")).toString() + u':'
                + image.toObject().value(QLatin1String("tag")).toString());
    o.insert(QStringLiteral("spec"), spec);
    o.insert(QStringLiteral("apiVersion"), desired);
    return o;
}

QString messageOf(const HttpReply &r) { return r.json().value(QLatin1String("message")).toString(); }

QJsonObject imageOf(const QJsonObject &o)
{
    return o.value(QLatin1String("spec")).toObject().value(QLatin1String("image")).toObject();
}

} // namespace

class TestApiServerCrdConversion : public QObject
{
    Q_OBJECT

    enum class Mode { Convert, WrongUid, WrongCount, Fail, Rename, Relabel };

    apiserver::TlsMaterial m_tls;
    WebhookServer m_hook;
    Mode m_mode = Mode::Convert;
    quint16 m_deadPort = 0;
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<TestHttp> m_http;
    QObject m_receiver;
    QList<apiserver::ConversionCall> m_observed;
    QList<apiserver::WebhookCallRecord> m_records; // ApiServer::webhookCalled (the Admission panel's feed)

    QByteArray answer(const QJsonObject &review)
    {
        const QJsonObject request = review.value(QLatin1String("request")).toObject();
        const QString desired = request.value(QLatin1String("desiredAPIVersion")).toString();
        QJsonArray converted;
        for (const QJsonValue o : request.value(QLatin1String("objects")).toArray()) {
            QJsonObject c = convert(o.toObject(), desired);
            QJsonObject meta = c.value("metadata").toObject();
            if (m_mode == Mode::Rename)
                meta.insert("name", "renamed");
            if (m_mode == Mode::Relabel) {
                meta.insert("labels", QJsonObject{{"converted", "yes"}});
                meta.insert("generation", 99);
            }
            c.insert("metadata", meta);
            converted.append(c);
        }
        QJsonObject result{{"status", "Success"}};
        if (m_mode == Mode::WrongCount)
            converted = QJsonArray();
        if (m_mode == Mode::Fail)
            result = QJsonObject{{"status", "Failure"}, {"message", "image has no tag"}};
        const QJsonObject response{{"uid", m_mode == Mode::WrongUid ? QStringLiteral("wrong") : request.value("uid")},
            {"result", result}, {"convertedObjects", converted}};
        return QJsonDocument(QJsonObject{{"apiVersion", "apiextensions.k8s.io/v1"}, {"kind", "ConversionReview"},
                                 {"response", response}})
            .toJson(QJsonDocument::Compact);
    }

    QJsonObject webhookConversion(const QString &url) const
    {
        return QJsonObject{{"strategy", "Webhook"},
            {"webhook",
                QJsonObject{{"conversionReviewVersions", QJsonArray{"v1", "v1beta1"}},
                    {"clientConfig",
                        QJsonObject{{"url", url}, {"caBundle", QString::fromLatin1(m_tls.caCert.toBase64())}}}}}};
    }

    /// Requests sent to the webhook so far.
    QList<QJsonObject> requests() const
    {
        QList<QJsonObject> out;
        for (const WebhookServer::Call &c : m_hook.calls)
            out << c.review.value(QLatin1String("request")).toObject();
        return out;
    }

    void create(const QString &name, const QString &image)
    {
        const HttpReply r = m_http->post(kAlpha, widget(name, image));
        QVERIFY2(r.code == 201, r.body.constData());
    }

private Q_SLOTS:
    void initTestCase()
    {
        auto tls = apiserver::TlsMaterial::generate();
        QVERIFY2(tls, qPrintable(tls ? QString() : tls.error().message()));
        m_tls = *tls;
        QVERIFY(m_hook.start(m_tls));
        m_hook.raw = [this](const QString &, const QJsonObject &review) { return answer(review); };
        QTcpServer dead; // a port nobody listens on once closed
        QVERIFY(dead.listen(QHostAddress::LocalHost, 0));
        m_deadPort = dead.serverPort();
        dead.close();
        m_api = std::make_unique<TestApiServer>(TestApiServer::plainOptions());
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        m_http = std::make_unique<TestHttp>(*m_api);
        m_api->runOnServerThread([this](apiserver::ApiServer &s) {
            connect(s.conversionWebhook(), &apiserver::ConversionWebhook::callFinished, &m_receiver,
                [this](const apiserver::ConversionCall &call) { m_observed << call; });
            connect(&s, &apiserver::ApiServer::webhookCalled, &m_receiver,
                [this](const apiserver::WebhookCallRecord &r) { m_records << r; });
        });
        HttpReply r = m_http->post(kCrds, crd("widgets", "Widget", webhookConversion(m_hook.url("/convert"))));
        QVERIFY2(r.code == 201, r.body.constData());
        r = m_http->post(kCrds,
            crd("gadgets", "Gadget",
                webhookConversion(QStringLiteral("https://127.0.0.1:%1/convert").arg(m_deadPort))));
        QVERIFY2(r.code == 201, r.body.constData());
        QTRY_COMPARE(m_http->get(kBeta).code, 200);
        QTRY_COMPARE(
            m_http->get(QStringLiteral("/apis/conv.example.com/v1beta1/namespaces/default/gadgets")).code, 200);
    }

    void init()
    {
        m_mode = Mode::Convert;
        m_hook.calls.clear();
        m_observed.clear();
        m_records.clear();
    }

    void cleanup() { m_http->call("DELETE", kAlpha); }

    void shouldConvertAGetToTheOtherVersionOnly()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        QCOMPARE(m_hook.calls.size(), 0); // written at the storage version: no call
        QCOMPARE(m_http->get(kAlpha + QStringLiteral("/a")).json().value("spec").toObject().value("image").toString(),
            QStringLiteral("nginx:1.25"));
        QCOMPARE(m_hook.calls.size(), 0); // read at the storage version: no call

        const HttpReply r = m_http->get(kBeta + QStringLiteral("/a"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.json().value("apiVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        QCOMPARE(imageOf(r.json()).value("tag").toString(), QStringLiteral("1.25"));
        // the ConversionReview v1 upstream sends: uid, desiredAPIVersion, the stored object
        QCOMPARE(m_hook.calls.size(), 1);
        QVERIFY(m_hook.calls.first().path.startsWith(QStringLiteral("/convert?timeout=30s")));
        const QJsonObject review = m_hook.calls.first().review;
        QCOMPARE(review.value("apiVersion").toString(), QStringLiteral("apiextensions.k8s.io/v1"));
        QCOMPARE(review.value("kind").toString(), QStringLiteral("ConversionReview"));
        const QJsonObject request = requests().first();
        QVERIFY(!request.value("uid").toString().isEmpty());
        QCOMPARE(request.value("desiredAPIVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        const QJsonArray objects = request.value("objects").toArray();
        QCOMPARE(objects.size(), 1);
        QCOMPARE(
            objects.first().toObject().value("apiVersion").toString(), QStringLiteral("conv.example.com/v1alpha1"));
        // the workbench's hook saw it
        QTRY_COMPARE(m_observed.size(), 1);
        QCOMPARE(m_observed.first().crd, QStringLiteral("widgets.conv.example.com"));
        QCOMPARE(m_observed.first().from, QStringLiteral("conv.example.com/v1alpha1"));
        QCOMPARE(m_observed.first().to, QStringLiteral("conv.example.com/v1beta1"));
        QCOMPARE(m_observed.first().objects, 1);
        QCOMPARE(m_observed.first().uid, request.value("uid").toString());
        QVERIFY(m_observed.first().ok);
    }

    void shouldReportEachConversionAsAWebhookCall()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        QCOMPARE(m_http->get(kBeta + QStringLiteral("/a")).code, 200);
        QTRY_COMPARE(m_records.size(), 1);
        apiserver::WebhookCallRecord r = m_records.first();
        QCOMPARE(r.kind, apiserver::WebhookCallRecord::Kind::Conversion);
        QCOMPARE(r.operation, QStringLiteral("CONVERT"));
        QCOMPARE(r.name, QStringLiteral("a"));
        QCOMPARE(r.objectKind, QStringLiteral("Widget"));
        QVERIFY(r.allowed);
        QCOMPARE(r.before.value("apiVersion").toString(), QStringLiteral("conv.example.com/v1alpha1"));
        QCOMPARE(r.after.value("apiVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        QVERIFY(r.url.contains(QLatin1String("/convert?timeout=")));

        m_mode = Mode::WrongUid;
        QCOMPARE(m_http->get(kBeta + QStringLiteral("/a")).code, 500);
        QTRY_COMPARE(m_records.size(), 2);
        r = m_records.last();
        QCOMPARE(r.failure, apiserver::WebhookCallRecord::Failure::BadResponse);
        QCOMPARE(r.code, 500);
        QVERIFY(r.message.contains(QLatin1String("expected response.uid")));
    }

    void shouldConvertAListInOneReview()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        create(QStringLiteral("b"), QStringLiteral("redis:7"));
        const HttpReply r = m_http->get(kBeta);
        QCOMPARE(r.code, 200);
        const QJsonArray items = r.json().value("items").toArray();
        QCOMPARE(items.size(), 2);
        QCOMPARE(imageOf(items.at(1).toObject()).value("repository").toString(), QStringLiteral("redis"));
        QCOMPARE(items.at(1).toObject().value("apiVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        QCOMPARE(m_hook.calls.size(), 1);
        QCOMPARE(requests().first().value("objects").toArray().size(), 2);
        QCOMPARE(m_http->get(kAlpha).code, 200);
        QCOMPARE(m_hook.calls.size(), 1); // the storage version: no call
    }

    void shouldStoreAWriteAtTheOtherVersionConverted()
    {
        QJsonObject body
            = convert(widget(QStringLiteral("c"), QStringLiteral("nginx:1.25")), "conv.example.com/v1beta1");
        const HttpReply r = m_http->post(kBeta, body);
        QVERIFY2(r.code == 201, r.body.constData());
        QCOMPARE(r.json().value("apiVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        QCOMPARE(imageOf(r.json()).value("repository").toString(), QStringLiteral("nginx"));
        // converted to the storage version, then the stored object back for the answer
        QCOMPARE(m_hook.calls.size(), 2);
        QCOMPARE(requests().at(0).value("desiredAPIVersion").toString(), QStringLiteral("conv.example.com/v1alpha1"));
        QCOMPARE(requests().at(1).value("desiredAPIVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        const HttpReply stored = m_http->get(kAlpha + QStringLiteral("/c"));
        QCOMPARE(stored.json().value("spec").toObject().value("image").toString(), QStringLiteral("nginx:1.25"));
        QCOMPARE(m_hook.calls.size(), 2);

        // an update at v1beta1: the old object converted, the new one stored converted
        QJsonObject next = r.json();
        QJsonObject spec = next.value("spec").toObject();
        spec.insert("image", QJsonObject{{"repository", "nginx"}, {"tag", "1.27"}});
        next.insert("spec", spec);
        const HttpReply updated = m_http->put(kBeta + QStringLiteral("/c"), next);
        QVERIFY2(updated.code == 200, updated.body.constData());
        QCOMPARE(imageOf(updated.json()).value("tag").toString(), QStringLiteral("1.27"));
        QCOMPARE(m_http->get(kAlpha + QStringLiteral("/c")).json().value("spec").toObject().value("image").toString(),
            QStringLiteral("nginx:1.27"));

        // a merge patch at v1beta1 applies to the converted object
        const HttpReply patched = m_http->call("PATCH", kBeta + QStringLiteral("/c"),
            R"({"spec":{"image":{"tag":"1.28"}}})", "application/merge-patch+json");
        QVERIFY2(patched.code == 200, patched.body.constData());
        QCOMPARE(imageOf(patched.json()).value("repository").toString(), QStringLiteral("nginx"));
        QCOMPARE(m_http->get(kAlpha + QStringLiteral("/c")).json().value("spec").toObject().value("image").toString(),
            QStringLiteral("nginx:1.28"));

        // a dry run at v1beta1 stores nothing and converts nothing
        const int before = int(m_hook.calls.size());
        body = convert(widget(QStringLiteral("d"), QStringLiteral("redis:7")), "conv.example.com/v1beta1");
        QCOMPARE(m_http->post(kBeta + QStringLiteral("?dryRun=All"), body).code, 201);
        QCOMPARE(int(m_hook.calls.size()), before);
        QCOMPARE(m_http->get(kAlpha + QStringLiteral("/d")).code, 404);
    }

    void shouldConvertWatchEventsPerWatcher()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        WatchStream beta(*m_api);
        beta.open(kBeta + QStringLiteral("?watch=1&resourceVersion=0"));
        WatchStream alpha(*m_api);
        alpha.open(kAlpha + QStringLiteral("?watch=1&resourceVersion=0"));
        QVERIFY(beta.waitForEvents(1));
        QVERIFY(alpha.waitForEvents(1));
        create(QStringLiteral("b"), QStringLiteral("redis:7"));
        QVERIFY(beta.waitForEvents(2));
        QVERIFY(alpha.waitForEvents(2));
        const QJsonObject initial = beta.events().at(0).value("object").toObject();
        QCOMPARE(beta.events().at(0).value("type").toString(), QStringLiteral("ADDED"));
        QCOMPARE(initial.value("apiVersion").toString(), QStringLiteral("conv.example.com/v1beta1"));
        QCOMPARE(imageOf(initial).value("tag").toString(), QStringLiteral("1.25"));
        QCOMPARE(imageOf(beta.events().at(1).value("object").toObject()).value("repository").toString(),
            QStringLiteral("redis"));
        QCOMPARE(alpha.events().at(1).value("object").toObject().value("spec").toObject().value("image").toString(),
            QStringLiteral("redis:7"));
        QCOMPARE(m_hook.calls.size(), 2); // the v1beta1 watcher's two events; none for v1alpha1
    }

    void shouldAnswer500WhenTheWebhookIsUnreachable()
    {
        const QString alpha = QStringLiteral("/apis/conv.example.com/v1alpha1/namespaces/default/gadgets");
        const QString beta = QStringLiteral("/apis/conv.example.com/v1beta1/namespaces/default/gadgets");
        QJsonObject gadget = widget(QStringLiteral("g"), QStringLiteral("nginx:1"));
        gadget.insert("kind", "Gadget");
        QCOMPARE(m_http->post(alpha, gadget).code, 201);
        const QString expected = QStringLiteral("conversion webhook for conv.example.com/v1alpha1, Kind=Gadget failed: "
                                                "Post \"https://127.0.0.1:%1/convert?timeout=30s\": dial tcp "
                                                "127.0.0.1:%1: connect: connection refused")
                                     .arg(m_deadPort);
        for (const QString &path : {beta + QStringLiteral("/g"), beta}) {
            const HttpReply r = m_http->get(path);
            QCOMPARE(r.code, 500);
            QCOMPARE(messageOf(r), expected);
            QCOMPARE(r.json().value("reason").toString(), QString()); // a plain error upstream
        }
        WatchStream w(*m_api);
        w.open(beta + QStringLiteral("?watch=1&resourceVersion=0"));
        QVERIFY(w.waitForEnd());
        QCOMPARE(w.types(), QStringList{QStringLiteral("ERROR")});
        const QJsonObject status = w.events().first().value("object").toObject();
        QCOMPARE(status.value("code").toInt(), 500);
        QCOMPARE(status.value("message").toString(), QStringLiteral("Internal error occurred: ") + expected);
        // a write at v1beta1 is not stored
        gadget = convert(widget(QStringLiteral("h"), QStringLiteral("nginx:1")), "conv.example.com/v1beta1");
        gadget.insert("kind", "Gadget");
        const HttpReply write = m_http->post(beta, gadget);
        QCOMPARE(write.code, 500);
        QCOMPARE(m_http->get(alpha + QStringLiteral("/h")).code, 404);
        m_http->call("DELETE", alpha);
    }

    void shouldRejectAWrongAnswer()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        m_mode = Mode::WrongUid;
        HttpReply r = m_http->get(kBeta + QStringLiteral("/a"));
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral("conversion webhook for conv.example.com/v1alpha1, Kind=Widget failed: "
                           "expected response.uid=\"%1\", got \"wrong\"")
                .arg(requests().last().value("uid").toString()));
        QTRY_COMPARE(m_observed.size(), 1);
        QVERIFY(!m_observed.first().ok);
        QCOMPARE(m_observed.first().error, messageOf(r));

        m_mode = Mode::WrongCount;
        r = m_http->get(kBeta + QStringLiteral("/a"));
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral(
                "conversion webhook for conv.example.com/v1alpha1, Kind=Widget returned 0 objects, expected 1"));

        m_mode = Mode::Rename;
        r = m_http->get(kBeta + QStringLiteral("/a"));
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral("conversion webhook for conv.example.com/v1alpha1, Kind=Widget returned invalid object: "
                           "must have the same name: a != renamed"));

        m_mode = Mode::Fail;
        r = m_http->get(kBeta);
        QCOMPARE(r.code, 500);
        QCOMPARE(messageOf(r),
            QStringLiteral("conversion webhook for conv.example.com/v1alpha1, Kind=Widget failed: image has no tag"));
    }

    void shouldConvertTheScaleSubresource()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        const QString scale = kBeta + QStringLiteral("/a/scale");
        QCOMPARE(m_http->get(scale).code, 200);
        QCOMPARE(m_hook.calls.size(), 1);
        const HttpReply r = m_http->put(scale,
            QJsonObject{{"apiVersion", "autoscaling/v1"}, {"kind", "Scale"},
                {"metadata", QJsonObject{{"name", "a"}, {"namespace", "default"}}},
                {"spec", QJsonObject{{"replicas", 3}}}});
        QVERIFY2(r.code == 200, r.body.constData());
        QCOMPARE(r.json().value("spec").toObject().value("replicas").toInt(), 3);
        const QJsonObject stored = m_http->get(kAlpha + QStringLiteral("/a")).json();
        QCOMPARE(stored.value("spec").toObject().value("replicas").toInt(), 3);
        QCOMPARE(stored.value("spec").toObject().value("image").toString(), QStringLiteral("nginx:1.25"));
    }

    void shouldKeepAllMetadataButLabelsAndAnnotations()
    {
        create(QStringLiteral("a"), QStringLiteral("nginx:1.25"));
        m_mode = Mode::Relabel;
        const HttpReply r = m_http->get(kBeta + QStringLiteral("/a"));
        QCOMPARE(r.code, 200);
        const QJsonObject meta = r.json().value("metadata").toObject();
        QCOMPARE(meta.value("labels").toObject().value("converted").toString(), QStringLiteral("yes"));
        QCOMPARE(meta.value("generation").toInt(), 1); // restored from the stored object
    }

    void shouldValidateSpecConversion_data()
    {
        QTest::addColumn<QJsonObject>("conversion");
        QTest::addColumn<QStringList>("causes");
        const QJsonObject url{{"url", "https://127.0.0.1:1/convert"}};
        QTest::newRow("webhook missing") << QJsonObject{{"strategy", "Webhook"}}
                                         << QStringList{"spec.conversion.webhookClientConfig: Required value: required "
                                                        "when strategy is set to Webhook",
                                                "spec.conversion.conversionReviewVersions: Required value"};
        QTest::newRow("url and service")
            << QJsonObject{{"strategy", "Webhook"},
                   {"webhook",
                       QJsonObject{{"conversionReviewVersions", QJsonArray{"v1"}},
                           {"clientConfig",
                               QJsonObject{{"url", "https://x.example/c"},
                                   {"service", QJsonObject{{"name", "s"}, {"namespace", "n"}}}}}}}}
            << QStringList{"spec.conversion.webhookClientConfig: Required value: exactly one of url or service is "
                           "required"};
        QTest::newRow("unknown review version")
            << QJsonObject{{"strategy", "Webhook"},
                   {"webhook", QJsonObject{{"conversionReviewVersions", QJsonArray{"v2"}}, {"clientConfig", url}}}}
            << QStringList{"spec.conversion.conversionReviewVersions: Invalid value: []string{\"v2\"}: must include at "
                           "least one of v1, v1beta1"};
        QTest::newRow("webhook with None")
            << QJsonObject{{"strategy", "None"},
                   {"webhook", QJsonObject{{"conversionReviewVersions", QJsonArray{"v1"}}, {"clientConfig", url}}}}
            << QStringList{"spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set "
                           "to Webhook",
                   "spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to "
                   "Webhook"};
        QTest::newRow("unknown strategy") << QJsonObject{{"strategy", "Magic"}}
                                          << QStringList{"spec.conversion.strategy: Unsupported value: \"Magic\": "
                                                         "supported values: \"None\", \"Webhook\""};
    }

    void shouldValidateSpecConversion()
    {
        QFETCH(QJsonObject, conversion);
        QFETCH(QStringList, causes);
        const HttpReply r = m_http->post(kCrds, crd("bad", "Bad", conversion));
        QCOMPARE(r.code, 422);
        QCOMPARE(r.json().value("reason").toString(), QStringLiteral("Invalid"));
        for (const QString &cause : causes)
            QVERIFY2(messageOf(r).contains(cause), qPrintable(messageOf(r)));
    }
};

QTEST_GUILESS_MAIN(TestApiServerCrdConversion)
#include "tst_apiserver_crdconversion.moc"
