// SPDX-License-Identifier: Apache-2.0
// MyApplication's webhooks through the test harness (OperatorFixture): the operator's definition
// is all the test gives; the fixture serves the webhooks on loopback with a generated
// certificate and registers them with the API server, which calls them over HTTPS on every
// create and update, as kube-apiserver would.
#include "engine/api/status.h"
#include "engine/client/restclient.h"
#include "engine/manager/manager.h"
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/operator/myapplicationv1beta1.h"
#include "engine/testing/operatorfixture.h"

#include <QJsonArray>
#include <QTest>

using namespace opbench;
using namespace opbench::myapp;
using testing::OperatorFixture;

namespace {

const QString kNs = QStringLiteral("default");

MyApplication newApp(const QString &name, const QString &image)
{
    MyApplication app(kNs, name);
    app.setImage(image);
    return app;
}

} // namespace

class TestMyAppWebhooks : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<OperatorFixture> m_env;

    Expected<Object> getLive(const GroupVersionResource &gvr, const QString &ns, const QString &name)
    {
        return QCoro::waitFor(m_env->manager()->restClient()->get(gvr, ns, name));
    }

    /// Sets spec.image of `name` on a fresh read (the operator writes its status meanwhile:
    /// a conflict is tried again); false with lastError() when refused otherwise.
    bool updateImage(const QString &name, const QString &image)
    {
        for (int attempt = 0; attempt < 10; ++attempt) {
            Expected<MyApplication> fresh = m_env->get<MyApplication>({kNs, name});
            if (!fresh)
                return false;
            fresh->setImage(image);
            if (m_env->update(*fresh))
                return true;
            if (!isConflict(m_env->lastError()))
                return false;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_env = std::make_unique<OperatorFixture>(definition());
        QVERIFY2(m_env->ok(), qPrintable(m_env->errorString()));
        QVERIFY(m_env->webhooks().active());
    }
    void cleanupTestCase() { m_env.reset(); }

    void anImageWithoutTagOrDigestIsDenied()
    {
        MyApplication app = newApp(QStringLiteral("bare"), QStringLiteral("nginx"));
        QVERIFY(!m_env->create(app));
        // kube-apiserver's wording for a validating webhook's denial, the webhook's own message
        // (a field error: path spec.image) after it, and the webhook's code (422).
        QCOMPARE(m_env->lastError().message(),
            QStringLiteral("admission webhook \"vmyapplication.example.com\" denied the request: "
                           "MyApplication.example.com \"bare\" is invalid: spec.image: Invalid value: \"nginx\": "
                           "must carry a tag or a digest (e.g. nginx:1.27 or nginx@sha256:<hex>)"));
        QCOMPARE(m_env->lastError().code(), 422);
        QVERIFY(!m_env->get<MyApplication>({kNs, QStringLiteral("bare")}).ok());
    }

    void aTagOrADigestIsAllowed()
    {
        MyApplication tagged = newApp(QStringLiteral("tagged"), QStringLiteral("nginx:1.27"));
        QVERIFY2(m_env->create(tagged), qPrintable(m_env->lastError().message()));
        MyApplication pinned = newApp(QStringLiteral("pinned"),
            QStringLiteral("nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31"));
        QVERIFY2(m_env->create(pinned), qPrintable(m_env->lastError().message()));
    }

    void anUpdateDroppingTheTagIsDenied()
    {
        MyApplication app = newApp(QStringLiteral("retag"), QStringLiteral("nginx:1.27"));
        QVERIFY2(m_env->create(app), qPrintable(m_env->lastError().message()));
        QVERIFY(!updateImage(QStringLiteral("retag"), QStringLiteral("nginx")));
        QVERIFY2(m_env->lastError().message().startsWith(
                     QStringLiteral("admission webhook \"vmyapplication.example.com\" denied the request: ")),
            qPrintable(m_env->lastError().message()));
        QCOMPARE(m_env->get<MyApplication>({kNs, QStringLiteral("retag")})->image(), QStringLiteral("nginx:1.27"));
    }

    void aCreateComesBackDefaulted()
    {
        MyApplication app = newApp(QStringLiteral("defaulted"), QStringLiteral("redis:7.2"));
        QVERIFY(!app.json().value(QLatin1String("spec")).toObject().contains(QLatin1String("replicas")));
        QVERIFY2(m_env->create(app), qPrintable(m_env->lastError().message()));
        // The mutating webhook's labels (the create's reply and a fresh read), and the schema's
        // default for replicas.
        for (const MyApplication &seen : {app, *m_env->get<MyApplication>({kNs, QStringLiteral("defaulted")})}) {
            QCOMPARE(seen.labels().value(QStringLiteral("app.kubernetes.io/name")), QStringLiteral("myapplication"));
            QCOMPARE(seen.labels().value(QStringLiteral("app.kubernetes.io/instance")), QStringLiteral("defaulted"));
            QCOMPARE(seen.json().value(QLatin1String("spec")).toObject().value(QLatin1String("replicas")).toInt(), 1);
        }
    }

    void theConfigurationsPointAtTheOperator()
    {
        const GroupVersionResource validating{QStringLiteral("admissionregistration.k8s.io"), QStringLiteral("v1"),
            QStringLiteral("validatingwebhookconfigurations")};
        Expected<Object> config
            = getLive(validating, QString(), QStringLiteral("myapplication-validating-webhook-configuration"));
        QVERIFY2(config.ok(), config.ok() ? "" : qPrintable(config.error().message()));
        const QJsonObject webhook = config->json().value(QLatin1String("webhooks")).toArray().first().toObject();
        const QJsonObject client = webhook.value(QLatin1String("clientConfig")).toObject();
        const quint16 port = m_env->manager()->existingWebhookServer()->port();
        QCOMPARE(client.value(QLatin1String("url")).toString(),
            QStringLiteral("https://127.0.0.1:%1/validate-example-com-v1alpha1-myapplication").arg(port));
        QCOMPARE(QByteArray::fromBase64(client.value(QLatin1String("caBundle")).toString().toLatin1()),
            m_env->webhooks().caPem());

        const GroupVersionResource crds{
            QStringLiteral("apiextensions.k8s.io"), QStringLiteral("v1"), QStringLiteral("customresourcedefinitions")};
        Expected<Object> crd = getLive(crds, QString(), QStringLiteral("myapplications.example.com"));
        QVERIFY(crd.ok());
        const QJsonObject conversion
            = crd->json().value(QLatin1String("spec")).toObject().value(QLatin1String("conversion")).toObject();
        QCOMPARE(conversion.value(QLatin1String("strategy")).toString(), QStringLiteral("Webhook"));
        QCOMPARE(conversion.value(QLatin1String("webhook"))
                     .toObject()
                     .value(QLatin1String("clientConfig"))
                     .toObject()
                     .value(QLatin1String("url"))
                     .toString(),
            QStringLiteral("https://127.0.0.1:%1/convert").arg(port));
    }

    void v1beta1ReadsAreConverted()
    {
        MyApplication app = newApp(QStringLiteral("beta"), QStringLiteral("registry.example.com/shop/web:2.4"));
        QVERIFY2(m_env->create(app), qPrintable(m_env->lastError().message()));
        const GroupVersionResource beta{
            QStringLiteral("example.com"), QStringLiteral("v1beta1"), QStringLiteral("myapplications")};
        Expected<Object> read = getLive(beta, kNs, QStringLiteral("beta"));
        QVERIFY2(read.ok(), read.ok() ? "" : qPrintable(read.error().message()));
        // The API server asked the operator's /convert (the CRD's conversion webhook, registered
        // by the fixture) for the v1beta1 form of the stored v1alpha1 object.
        QCOMPARE(read->apiVersion(), QStringLiteral("example.com/v1beta1"));
        QCOMPARE(MyApplicationV1beta1(*read).image(),
            (ImageReference{QStringLiteral("registry.example.com/shop/web"), QStringLiteral("2.4"), QString()}));

        Expected<Object::List> listed = QCoro::waitFor(m_env->manager()->restClient()->list(beta, kNs));
        QVERIFY2(listed.ok(), listed.ok() ? "" : qPrintable(listed.error().message()));
        QVERIFY(!listed->items.isEmpty());
        for (const Object &item : std::as_const(listed->items)) {
            QCOMPARE(item.apiVersion(), QStringLiteral("example.com/v1beta1"));
            QVERIFY(item.json().value(QLatin1String("spec")).toObject().value(QLatin1String("image")).isObject());
        }
    }

    void aV1beta1CreateIsStoredAsV1alpha1()
    {
        MyApplicationV1beta1 app;
        app.meta().setNamespace(kNs);
        app.meta().setName(QStringLiteral("written-beta"));
        app.setImage({QStringLiteral("nginx"), QStringLiteral("1.27"), QString()});
        app.setReplicas(2);
        const GroupVersionResource beta{
            QStringLiteral("example.com"), QStringLiteral("v1beta1"), QStringLiteral("myapplications")};
        Expected<Object> created = QCoro::waitFor(m_env->manager()->restClient()->create(beta, kNs, app.toObject()));
        QVERIFY2(created.ok(), created.ok() ? "" : qPrintable(created.error().message()));
        QCOMPARE(created->apiVersion(), QStringLiteral("example.com/v1beta1")); // answered as asked
        // Stored (and read at) the storage version, v1alpha1: the image joined again, and the
        // validating and mutating webhooks saw the converted object (its labels were defaulted).
        Expected<MyApplication> stored = m_env->get<MyApplication>({kNs, QStringLiteral("written-beta")});
        QVERIFY2(stored.ok(), stored.ok() ? "" : qPrintable(stored.error().message()));
        QCOMPARE(stored->image(), QStringLiteral("nginx:1.27"));
        QCOMPARE(stored->replicas(), 2);
    }
};

QTEST_GUILESS_MAIN(TestMyAppWebhooks)
#include "tst_myappwebhooks.moc"
