// SPDX-License-Identifier: Apache-2.0
// Admission webhooks over real HTTPS: a typed defaulter's JSON patch, a typed validator's
// answers (controller-runtime's codes, reasons and messages), malformed reviews and a throwing
// handler answered as controller-runtime answers them, and the webhook builder's paths.
#include "engine/base/metrics.h"
#include "engine/webhook/jsonpatch.h"
#include "engine/webhook/webhookbuilder.h"
#include "tests/webhook/webhookkinds.h"
#include "tests/webhook/webhooktestkit.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <stdexcept>

using namespace opbench;
using opbench::test::GuestbookV2;

namespace {

class Defaulter : public CustomDefaulter<GuestbookV2>
{
public:
    Expected<void> applyDefaults(GuestbookV2 &gb) override
    {
        if (gb.spec.title == QLatin1String("refuse"))
            return Status::badRequest(QStringLiteral("a title of \"refuse\" cannot be defaulted"));
        if (gb.spec.size == 0)
            gb.spec.size = 1;
        if (gb.spec.tier.isEmpty())
            gb.spec.tier = QStringLiteral("standard");
        gb.meta().setLabels({{QStringLiteral("app.kubernetes.io/name"), QStringLiteral("guestbook")}});
        return {};
    }
};

class Validator : public CustomValidator<GuestbookV2>
{
public:
    ValidationResult validateCreate(const GuestbookV2 &gb) override
    {
        if (gb.spec.title == QLatin1String("boom"))
            throw std::runtime_error("validator exploded");
        if (gb.spec.title == QLatin1String("forbidden"))
            return ValidationResult::denied(QStringLiteral("titles may not be \"forbidden\""));
        QStringList warnings;
        if (gb.spec.size > 5)
            warnings << QStringLiteral("spec.size above 5 is expensive");
        if (gb.spec.size > 10)
            return ValidationResult::invalid({fielderror::invalidRaw(QStringLiteral("spec.size"),
                                                 QString::number(gb.spec.size), QStringLiteral("must be at most 10"))},
                warnings);
        return ValidationResult::allowed(warnings);
    }
    ValidationResult validateUpdate(const GuestbookV2 &oldGb, const GuestbookV2 &newGb) override
    {
        if (oldGb.spec.title != newGb.spec.title)
            return ValidationResult::invalid({fielderror::invalid(QStringLiteral("spec.title"), newGb.spec.title,
                                                  QStringLiteral("field is immutable")),
                fielderror::required(QStringLiteral("spec.tier"))});
        return ValidationResult::allowed();
    }
    ValidationResult validateDelete(const GuestbookV2 &gb) override
    {
        if (gb.spec.title == QLatin1String("keep"))
            return ValidationResult::denied(QStringLiteral("this guestbook is kept"));
        return ValidationResult::allowed();
    }
};

QJsonObject guestbook(const QString &title, int size = 0)
{
    GuestbookV2 gb(QStringLiteral("default"), QStringLiteral("gb"));
    gb.spec.title = title;
    QJsonObject doc = gb.toObject().json();
    QJsonObject spec{{QStringLiteral("title"), title}};
    if (size)
        spec.insert(QStringLiteral("size"), size);
    doc.insert(QStringLiteral("spec"), spec); // as a user would send it: only what they set
    return doc;
}

QByteArray review(const QString &operation, const QJsonObject &object, const QJsonObject &oldObject = {})
{
    QJsonObject request{{QStringLiteral("uid"), QStringLiteral("uid-") + operation.toLower()},
        {QStringLiteral("kind"),
            QJsonObject{{QStringLiteral("group"), QStringLiteral("webapp.example.org")},
                {QStringLiteral("version"), QStringLiteral("v2")},
                {QStringLiteral("kind"), QStringLiteral("Guestbook")}}},
        {QStringLiteral("name"), QStringLiteral("gb")}, {QStringLiteral("namespace"), QStringLiteral("default")},
        {QStringLiteral("operation"), operation}};
    if (!object.isEmpty())
        request.insert(QStringLiteral("object"), object);
    if (!oldObject.isEmpty())
        request.insert(QStringLiteral("oldObject"), oldObject);
    const QJsonObject r{{QStringLiteral("apiVersion"), QStringLiteral("admission.k8s.io/v1")},
        {QStringLiteral("kind"), QStringLiteral("AdmissionReview")}, {QStringLiteral("request"), request}};
    return QJsonDocument(r).toJson(QJsonDocument::Compact);
}

} // namespace

class TestAdmission : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    MetricsRegistry m_metrics;
    std::unique_ptr<WebhookServer> m_server;

    QJsonObject post(const QString &path, const QByteArray &body, const QByteArray &type = "application/json")
    {
        const auto r = test::postHttps(m_dir.path(), m_server->port(), path, body, type);
        if (r.code != 200)
            qWarning("HTTP %d: %s %s", r.code, r.body.constData(), qPrintable(r.error));
        const QJsonObject review = QJsonDocument::fromJson(r.body).object();
        return review.value(QLatin1String("response")).toObject();
    }
    QString validate() const { return validatePath(gvkOf<GuestbookV2>()); }
    QString mutate() const { return mutatePath(gvkOf<GuestbookV2>()); }

private Q_SLOTS:
    void initTestCase()
    {
        QString error;
        QVERIFY2(test::writeServingCert(m_dir.path(), QStringLiteral("admission"), &error), qPrintable(error));
        m_server = std::make_unique<WebhookServer>(test::loopbackOptions(m_dir.path(), &m_metrics));
        const Expected<void> built = WebhookBuilder(m_server.get())
                                         .forKind<GuestbookV2>()
                                         .withDefaulter(std::make_shared<Defaulter>())
                                         .withValidator(std::make_shared<Validator>())
                                         .complete();
        QVERIFY2(built, qPrintable(built ? QString() : built.error().message()));
        QVERIFY(m_server->start());
    }

    void pathsAreKubebuilders()
    {
        // kubebuilder: /mutate-<group with dashes>-<version>-<lower-case kind>.
        QCOMPARE(m_server->paths(),
            QStringList({QStringLiteral("/mutate-webapp-example-org-v2-guestbook"),
                QStringLiteral("/validate-webapp-example-org-v2-guestbook")}));
    }

    void defaulterPatchGivesTheDefaultedObject()
    {
        const QJsonObject sent = guestbook(QStringLiteral("hello"));
        const QJsonObject response = post(mutate(), review(QStringLiteral("CREATE"), sent));
        QCOMPARE(response.value(QLatin1String("uid")).toString(), QStringLiteral("uid-create"));
        QVERIFY(response.value(QLatin1String("allowed")).toBool());
        QCOMPARE(response.value(QLatin1String("patchType")).toString(), QStringLiteral("JSONPatch"));
        const QJsonArray ops = QJsonDocument::fromJson(
            QByteArray::fromBase64(response.value(QLatin1String("patch")).toString().toLatin1()))
                                   .array();
        QVERIFY(!ops.isEmpty());
        const QJsonObject patched = test::applyPatch(sent, ops);
        GuestbookV2 gb(Object::fromJson(patched));
        QCOMPARE(gb.spec.size, 1);
        QCOMPARE(gb.spec.tier, QStringLiteral("standard"));
        QCOMPARE(gb.spec.title, QStringLiteral("hello"));
        QCOMPARE(gb.meta().labels().value(QStringLiteral("app.kubernetes.io/name")), QStringLiteral("guestbook"));
        // A DELETE is allowed without a patch (controller-runtime skips the defaulter).
        const QJsonObject del = post(mutate(), review(QStringLiteral("DELETE"), {}, sent));
        QVERIFY(del.value(QLatin1String("allowed")).toBool());
        QVERIFY(!del.contains(QLatin1String("patch")));
        // A defaulter's error with a code is answered with that status.
        const QJsonObject refused
            = post(mutate(), review(QStringLiteral("CREATE"), guestbook(QStringLiteral("refuse"))));
        QVERIFY(!refused.value(QLatin1String("allowed")).toBool());
        QCOMPARE(refused.value(QLatin1String("status")).toObject().value(QLatin1String("code")).toInt(), 400);
    }

    void jsonPatchEscapesPointers()
    {
        const QJsonObject before{{QStringLiteral("a/b"), 1}, {QStringLiteral("gone"), true}};
        const QJsonObject after{{QStringLiteral("a/b"), 2}, {QStringLiteral("m~n"), QJsonArray{1}}};
        const QJsonArray ops = createJsonPatch(before, after);
        QCOMPARE(ops.size(), 3);
        QCOMPARE(test::applyPatch(before, ops), after);
        const QByteArray text = QJsonDocument(ops).toJson(QJsonDocument::Compact);
        QVERIFY2(
            text.contains("\"/a~1b\"") && text.contains("\"/m~0n\"") && text.contains("\"remove\""), text.constData());
    }

    void validatorAnswers_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QStringList>("warnings");
        const QStringList none;
        const QStringList expensive{QStringLiteral("spec.size above 5 is expensive")};
        QTest::newRow("create allowed") << review(QStringLiteral("CREATE"), guestbook(QStringLiteral("ok"), 2)) << true
                                        << 200 << QString() << QString() << none;
        QTest::newRow("create allowed with a warning")
            << review(QStringLiteral("CREATE"), guestbook(QStringLiteral("ok"), 6)) << true << 200 << QString()
            << QString() << expensive;
        // controller-runtime: a plain error is Denied: 403, reason Forbidden, the error's text.
        QTest::newRow("create denied") << review(QStringLiteral("CREATE"), guestbook(QStringLiteral("forbidden")))
                                       << false << 403 << QStringLiteral("Forbidden")
                                       << QStringLiteral("titles may not be \"forbidden\"") << none;
        // An apierrors.NewInvalid: 422 Invalid, worded as field.ErrorList's aggregate; warnings kept.
        QTest::newRow("create invalid") << review(QStringLiteral("CREATE"), guestbook(QStringLiteral("big"), 11))
                                        << false << 422 << QStringLiteral("Invalid")
                                        << QStringLiteral("Guestbook.webapp.example.org \"gb\" is invalid: spec.size: "
                                                          "Invalid value: 11: must be at most 10")
                                        << expensive;
        QTest::newRow("update invalid, two causes")
            << review(QStringLiteral("UPDATE"), guestbook(QStringLiteral("new")), guestbook(QStringLiteral("old")))
            << false << 422 << QStringLiteral("Invalid")
            << QStringLiteral(
                   "Guestbook.webapp.example.org \"gb\" is invalid: [spec.title: Invalid value: \"new\": field "
                   "is immutable, spec.tier: Required value]")
            << none;
        QTest::newRow("delete denied") << review(QStringLiteral("DELETE"), {}, guestbook(QStringLiteral("keep")))
                                       << false << 403 << QStringLiteral("Forbidden")
                                       << QStringLiteral("this guestbook is kept") << none;
    }
    void validatorAnswers()
    {
        QFETCH(QByteArray, body);
        const QJsonObject response = post(validate(), body);
        const QJsonObject status = response.value(QLatin1String("status")).toObject();
        QFETCH(bool, allowed);
        QCOMPARE(response.value(QLatin1String("allowed")).toBool(), allowed);
        QFETCH(int, code);
        QFETCH(QString, reason);
        QFETCH(QString, message);
        QFETCH(QStringList, warnings);
        QCOMPARE(status.value(QLatin1String("code")).toInt(), code);
        QCOMPARE(status.value(QLatin1String("reason")).toString(), reason);
        QCOMPARE(status.value(QLatin1String("message")).toString(), message);
        QStringList got;
        for (const auto &w : response.value(QLatin1String("warnings")).toArray())
            got << w.toString();
        QCOMPARE(got, warnings);
        QVERIFY(response.value(QLatin1String("uid")).toString().startsWith(QLatin1String("uid-")));
    }

    void malformedReviewsGet400_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{nope") << QByteArray("application/json")
                                  << QStringLiteral("unable to decode the request");
        QTest::newRow("not a review") << QByteArray(R"({"apiVersion":"v1","kind":"Pod"})")
                                      << QByteArray("application/json")
                                      << QStringLiteral("expected an AdmissionReview");
        QTest::newRow("no request") << QByteArray(R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"})")
                                    << QByteArray("application/json") << QStringLiteral("has no request");
        QTest::newRow("wrong content type")
            << review(QStringLiteral("CREATE"), guestbook(QStringLiteral("x"))) << QByteArray("text/plain")
            << QStringLiteral("contentType=text/plain, expected application/json");
        QTest::newRow("another kind") << review(QStringLiteral("CREATE"),
            QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("ConfigMap")}})
                                      << QByteArray("application/json")
                                      << QStringLiteral("expected webapp.example.org/v2 Guestbook");
    }
    void malformedReviewsGet400()
    {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, contentType);
        QFETCH(QString, message);
        const QJsonObject response = post(validate(), body, contentType);
        QVERIFY(!response.isEmpty());
        QCOMPARE(response.value(QLatin1String("allowed")).toBool(), false);
        const QJsonObject status = response.value(QLatin1String("status")).toObject();
        QCOMPARE(status.value(QLatin1String("code")).toInt(), 400);
        QVERIFY2(status.value(QLatin1String("message")).toString().contains(message),
            qPrintable(status.value(QLatin1String("message")).toString()));
    }

    void throwingValidatorGets500AndServingGoesOn()
    {
        const QJsonObject response
            = post(validate(), review(QStringLiteral("CREATE"), guestbook(QStringLiteral("boom"))));
        QCOMPARE(response.value(QLatin1String("allowed")).toBool(), false);
        const QJsonObject status = response.value(QLatin1String("status")).toObject();
        QCOMPARE(status.value(QLatin1String("code")).toInt(), 500);
        // controller-runtime's RecoverPanic wording.
        QCOMPARE(
            status.value(QLatin1String("message")).toString(), QStringLiteral("panic: validator exploded [recovered]"));
        QVERIFY(post(validate(), review(QStringLiteral("CREATE"), guestbook(QStringLiteral("ok"))))
                    .value(QLatin1String("allowed"))
                    .toBool());
        // Admission answers are HTTP 200 with the code inside: counted under code 200.
        const Counter *c = m_metrics
                               .counter(QStringLiteral("controller_runtime_webhook_requests_total"), {},
                                   {QStringLiteral("webhook"), QStringLiteral("code")})
                               ->find({validate(), QStringLiteral("200")});
        QVERIFY(c && c->value() >= 2);
    }

    void builderReportsMisuse()
    {
        WebhookServer server;
        QVERIFY(!WebhookBuilder(&server).withValidator(std::make_shared<Validator>()).complete());
        QVERIFY(!WebhookBuilder(&server)
                     .forKind<test::GuestbookV1>()
                     .withValidator(std::make_shared<Validator>())
                     .complete());
        const Expected<void> nothing = WebhookBuilder(&server).forKind<GuestbookV2>().complete();
        QVERIFY(!nothing);
        QVERIFY(nothing.error().message().contains(QLatin1String("nothing to serve")));
    }
};

QTEST_GUILESS_MAIN(TestAdmission)
#include "tst_admission.moc"
