// SPDX-License-Identifier: Apache-2.0
// MyApplication's v1beta1 conversion and its image rule, without a server: the handler /convert
// runs (ConversionRegistry) takes v1alpha1 → v1beta1 → v1alpha1 back to the same object, every
// v1beta1 spoke survives spoke → hub → spoke (checkRoundTrip, controller-runtime's fuzz-free
// equivalent), and the validator's spec.image rule answers as documented in webhooks.h.
#include "engine/operator/myapplicationv1beta1.h"
#include "engine/operator/webhooks.h"
#include "engine/webhook/webhookserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::myapp;

namespace {

MyApplication app(const QString &image)
{
    MyApplication a(QStringLiteral("default"), QStringLiteral("web"));
    a.setImage(image);
    a.setReplicas(3);
    a.setStatus(2, Phase::Running);
    return a;
}

// One ConversionReview v1 through the registry's HTTP handler; the converted objects.
QJsonArray convertThroughHandler(const ConversionRegistry &registry, const QJsonObject &object, const QString &to)
{
    const QJsonObject review{{QStringLiteral("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("ConversionReview")},
        {QStringLiteral("request"),
            QJsonObject{{QStringLiteral("uid"), QStringLiteral("u-1")}, {QStringLiteral("desiredAPIVersion"), to},
                {QStringLiteral("objects"), QJsonArray{object}}}}};
    WebhookRequest request;
    request.method = "POST";
    request.path = QStringLiteral("/convert");
    request.contentType = "application/json";
    request.body = QJsonDocument(review).toJson(QJsonDocument::Compact);
    const WebhookReply reply = registry.serve(request);
    const QJsonObject response
        = QJsonDocument::fromJson(reply.body).object().value(QLatin1String("response")).toObject();
    if (response.value(QLatin1String("result")).toObject().value(QLatin1String("status")).toString()
        != QLatin1String("Success"))
        qWarning("conversion failed: %s", reply.body.constData());
    return response.value(QLatin1String("convertedObjects")).toArray();
}

} // namespace

class TestMyAppConversion : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void imageReferenceParts_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("repository");
        QTest::addColumn<QString>("tag");
        QTest::addColumn<QString>("digest");
        QTest::newRow("tag") << "nginx:1.27"
                             << "nginx"
                             << "1.27"
                             << "";
        QTest::newRow("digest") << "nginx@sha256:abc"
                                << "nginx"
                                << ""
                                << "sha256:abc";
        QTest::newRow("both") << "nginx:1.27@sha256:abc"
                              << "nginx"
                              << "1.27"
                              << "sha256:abc";
        QTest::newRow("registry port, no tag") << "host:5000/app"
                                               << "host:5000/app"
                                               << ""
                                               << "";
        QTest::newRow("registry port, tag") << "host:5000/shop/app:2.4"
                                            << "host:5000/shop/app"
                                            << "2.4"
                                            << "";
        QTest::newRow("bare") << "nginx"
                              << "nginx"
                              << ""
                              << "";
    }
    void imageReferenceParts()
    {
        QFETCH(QString, image);
        const ImageReference ref = ImageReference::parse(image);
        QTEST(ref.repository, "repository");
        QTEST(ref.tag, "tag");
        QTEST(ref.digest, "digest");
        QCOMPARE(ref.toString(), image);
    }

    void v1alpha1ThroughV1beta1IsUnchanged_data()
    {
        QTest::addColumn<QString>("image");
        for (const char *image : {"nginx:1.27", "nginx@sha256:0123abcd", "host:5000/shop/app:2.4@sha256:ff", "nginx"})
            QTest::newRow(image) << QString::fromLatin1(image);
    }
    void v1alpha1ThroughV1beta1IsUnchanged()
    {
        QFETCH(QString, image);
        WebhookServer server;
        Expected<ConversionRegistry *> registry = ConversionRegistry::of(&server);
        QVERIFY(registry.ok());
        KindConversion conversion = KindConversion::forHub<MyApplication>();
        conversion.addSpokeOf<MyApplicationV1beta1>();
        QVERIFY((*registry)->add(conversion).ok());

        const QJsonObject original = app(image).toObject().json();
        const QJsonArray beta = convertThroughHandler(**registry, original, QStringLiteral("example.com/v1beta1"));
        QCOMPARE(beta.size(), 1);
        const MyApplicationV1beta1 spoke(Object::fromJson(beta.first().toObject()));
        QCOMPARE(spoke.toObject().apiVersion(), QStringLiteral("example.com/v1beta1"));
        QCOMPARE(spoke.image(), ImageReference::parse(image)); // the field change: image in parts
        QCOMPARE(spoke.replicas(), 3);
        QCOMPARE(spoke.toObject().name(), QStringLiteral("web"));
        const QJsonArray back
            = convertThroughHandler(**registry, beta.first().toObject(), QStringLiteral("example.com/v1alpha1"));
        QCOMPARE(back.size(), 1);
        QCOMPARE(back.first().toObject(), original);
    }

    void v1beta1SurvivesTheHub()
    {
        MyApplicationV1beta1 spoke;
        spoke.meta().setNamespace(QStringLiteral("default"));
        spoke.meta().setName(QStringLiteral("web"));
        spoke.setImage({QStringLiteral("registry.example.com/shop/web"), QStringLiteral("2.4"), QString()});
        spoke.setReplicas(2);
        const Expected<void> ok = checkRoundTrip(spoke);
        QVERIFY2(ok.ok(), qPrintable(ok.error().message()));
    }

    void imageRule_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("bare name is denied") << "nginx" << false;
        QTest::newRow("registry with port, no tag, denied") << "host:5000/app" << false;
        QTest::newRow("tag") << "nginx:1.27" << true;
        QTest::newRow("digest") << "nginx@sha256:0123abcd" << true;
    }
    void imageRule()
    {
        QFETCH(QString, image);
        QFETCH(bool, allowed);
        MyApplicationValidator validator;
        const ValidationResult created = validator.validateCreate(app(image));
        QCOMPARE(created.isAllowed(), allowed);
        QCOMPARE(validator.validateUpdate(app(QStringLiteral("nginx:1.0")), app(image)).isAllowed(), allowed);
        QVERIFY(validator.validateDelete(app(image)).isAllowed());
        if (!allowed) {
            // apimachinery's field error (422 Invalid; the server words the whole message with
            // the object's kind and name: tst_myappwebhooks).
            QCOMPARE(created.error()->code(), 422);
            QCOMPARE(created.error()->details().causes.size(), 1);
            const StatusCause cause = created.error()->details().causes.first();
            QCOMPARE(cause.field, QStringLiteral("spec.image"));
            QCOMPARE(cause.reason, QStringLiteral("FieldValueInvalid"));
            QCOMPARE(cause.message,
                QStringLiteral("Invalid value: \"%1\": must carry a tag or a digest (e.g. %2:1.27 or %2@sha256:<hex>)")
                    .arg(image, ImageReference::parse(image).repository));
        }
    }

    void defaulterSetsTheRecommendedLabels()
    {
        MyApplicationDefaulter defaulter;
        MyApplication a = app(QStringLiteral("nginx:1.27"));
        QVERIFY(defaulter.applyDefaults(a).ok());
        QCOMPARE(a.labels().value(QStringLiteral("app.kubernetes.io/name")), QStringLiteral("myapplication"));
        QCOMPARE(a.labels().value(QStringLiteral("app.kubernetes.io/instance")), QStringLiteral("web"));
        MyApplication own = app(QStringLiteral("nginx:1.27"));
        own.meta().setLabel(QStringLiteral("app.kubernetes.io/instance"), QStringLiteral("shop"));
        QVERIFY(defaulter.applyDefaults(own).ok());
        QCOMPARE(own.labels().value(QStringLiteral("app.kubernetes.io/instance")), QStringLiteral("shop")); // kept
    }
};

QTEST_GUILESS_MAIN(TestMyAppConversion)
#include "tst_myappconversion.moc"
