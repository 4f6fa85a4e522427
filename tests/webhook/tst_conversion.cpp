// SPDX-License-Identifier: Apache-2.0
// Conversion webhooks over real HTTPS: hub and spoke (controller-runtime's pkg/conversion), a
// ConversionReview answered with convertedObjects or a Failure result, a malformed review
// answered 400, and the round-trip check helper.
#include "engine/webhook/webhookbuilder.h"
#include "tests/webhook/webhookkinds.h"
#include "tests/webhook/webhooktestkit.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace opbench;
using opbench::test::GuestbookV1;
using opbench::test::GuestbookV2;

namespace {

QJsonObject v1(const QString &title, int replicas)
{
    GuestbookV1 gb(QStringLiteral("default"), title);
    gb.spec.title = title;
    gb.spec.replicas = replicas;
    return gb.toObject().json();
}

QByteArray conversionReview(const QString &desired, const QJsonArray &objects)
{
    const QJsonObject review{{QStringLiteral("apiVersion"), QStringLiteral("apiextensions.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("ConversionReview")},
        {QStringLiteral("request"),
            QJsonObject{{QStringLiteral("uid"), QStringLiteral("conv-1")},
                {QStringLiteral("desiredAPIVersion"), desired}, {QStringLiteral("objects"), objects}}}};
    return QJsonDocument(review).toJson(QJsonDocument::Compact);
}

} // namespace

class TestConversion : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<WebhookServer> m_server;

    QJsonObject convert(const QByteArray &body)
    {
        const auto r = test::postHttps(m_dir.path(), m_server->port(), QStringLiteral("/convert"), body);
        [&] { QCOMPARE(r.code, 200); }();
        const QJsonObject review = QJsonDocument::fromJson(r.body).object();
        [&] { QCOMPARE(review.value(QLatin1String("kind")).toString(), QStringLiteral("ConversionReview")); }();
        return review.value(QLatin1String("response")).toObject();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("conversion"), &error), qPrintable(error));
        m_server = std::make_unique<WebhookServer>(test::loopbackOptions(m_dir.path()));
        const Expected<void> built
            = WebhookBuilder(m_server.get()).forKind<GuestbookV2>().withConversion<GuestbookV1>().complete();
        QVERIFY2(built, qPrintable(built ? QString() : built.error().message()));
        QVERIFY(m_server->start());
        QCOMPARE(m_server->paths(), QStringList{QStringLiteral("/convert")});
    }

    void roundTripHelper()
    {
        GuestbookV1 gb(Object::fromJson(v1(QStringLiteral("hello"), 3)));
        const Expected<void> ok = checkRoundTrip(gb);
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().message()));
        GuestbookV1 bad(Object::fromJson(v1(QStringLiteral("unconvertible"), 3)));
        QVERIFY(!checkRoundTrip(bad));
        // A field the hub does not carry is lost on the way: the helper names it.
        QJsonObject extra = v1(QStringLiteral("extra"), 1);
        extra.insert(QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("title"), QStringLiteral("extra")}, {QStringLiteral("replicas"), 1},
                {QStringLiteral("color"), QStringLiteral("red")}});
        const Expected<void> lossy = checkRoundTrip(GuestbookV1(Object::fromJson(extra)));
        QVERIFY(!lossy);
        QVERIFY2(lossy.error().message().contains(QLatin1String("/spec/color")), qPrintable(lossy.error().message()));
    }

    void convertsSpokeToHubAndBack()
    {
        QJsonObject response = convert(conversionReview(QStringLiteral("webapp.example.org/v2"),
            QJsonArray{v1(QStringLiteral("a"), 2), v1(QStringLiteral("b"), 5)}));
        QCOMPARE(response.value(QLatin1String("uid")).toString(), QStringLiteral("conv-1"));
        QCOMPARE(response.value(QLatin1String("result")).toObject().value(QLatin1String("status")).toString(),
            QStringLiteral("Success"));
        const QJsonArray converted = response.value(QLatin1String("convertedObjects")).toArray();
        QCOMPARE(converted.size(), 2);
        GuestbookV2 hub(Object::fromJson(converted.at(1).toObject()));
        QCOMPARE(hub.toObject().json().value(QLatin1String("apiVersion")).toString(),
            QStringLiteral("webapp.example.org/v2"));
        QCOMPARE(hub.spec.size, 5);
        QCOMPARE(hub.name(), QStringLiteral("b"));
        // And back: the hub to the spoke gives the original.
        response = convert(conversionReview(QStringLiteral("webapp.example.org/v1"), converted));
        const QJsonArray back = response.value(QLatin1String("convertedObjects")).toArray();
        QCOMPARE(back.at(0).toObject(), v1(QStringLiteral("a"), 2));
    }

    void failuresAreResults_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("message");
        QTest::newRow("conversion fails")
            << conversionReview(
                   QStringLiteral("webapp.example.org/v2"), QJsonArray{v1(QStringLiteral("unconvertible"), 1)})
            << QStringLiteral(
                   "objects[0]: Guestbook.webapp.example.org \"unconvertible\": converting webapp.example.org/v1 to "
                   "the hub v2: title \"unconvertible\" has no v2 form");
        QTest::newRow("unknown version") << conversionReview(
            QStringLiteral("webapp.example.org/v9"), QJsonArray{v1(QStringLiteral("a"), 1)})
                                         << QStringLiteral("version v9 is not convertible (known: v2, v1)");
        QTest::newRow("unknown kind") << conversionReview(QStringLiteral("webapp.example.org/v2"),
            QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("other.example.org/v1")},
                {QStringLiteral("kind"), QStringLiteral("Thing")}}})
                                      << QStringLiteral(
                                             "objects[0]: no conversion for kind Thing of other.example.org/v1");
        QTest::newRow("same version") << conversionReview(
            QStringLiteral("webapp.example.org/v1"), QJsonArray{v1(QStringLiteral("a"), 1)})
                                      << QStringLiteral("conversion is not allowed between same type");
    }
    void failuresAreResults()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, message);
        const QJsonObject response = convert(body);
        QCOMPARE(response.value(QLatin1String("uid")).toString(), QStringLiteral("conv-1"));
        const QJsonObject result = response.value(QLatin1String("result")).toObject();
        QCOMPARE(result.value(QLatin1String("status")).toString(), QStringLiteral("Failure"));
        QVERIFY2(result.value(QLatin1String("message")).toString().contains(message),
            qPrintable(result.value(QLatin1String("message")).toString()));
        QVERIFY(!response.contains(QLatin1String("convertedObjects")));
    }

    void malformedReviewGets400()
    {
        for (const QByteArray &body : {QByteArray("{oops"), QByteArray(R"({"kind":"ConversionReview"})"),
                 QByteArray(R"({"kind":"AdmissionReview","request":{}})")}) {
            const auto r = test::postHttps(m_dir.path(), m_server->port(), QStringLiteral("/convert"), body);
            QCOMPARE(r.code, 400);
            QVERIFY(!r.body.trimmed().isEmpty());
        }
        // And the server still converts.
        QCOMPARE(
            convert(conversionReview(QStringLiteral("webapp.example.org/v2"), QJsonArray{v1(QStringLiteral("a"), 1)}))
                .value(QLatin1String("result"))
                .toObject()
                .value(QLatin1String("status"))
                .toString(),
            QStringLiteral("Success"));
    }
};

QTEST_GUILESS_MAIN(TestConversion)
#include "tst_conversion.moc"
