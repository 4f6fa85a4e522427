// SPDX-License-Identifier: Apache-2.0
#include "engine/api/status.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;

class tst_Status : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldParseTheServersInvalidStatus()
    {
        // The 422 the API server sends for spec.replicas: 0 (k8s-api-semantics §9).
        QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/status-invalid-myapplication.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray body = f.readAll();
        const Status s = Status::fromHttp(422, body);
        QCOMPARE(s.code(), 422);
        QVERIFY(isInvalid(s));
        QVERIFY(!isConflict(s));
        QCOMPARE(s.details().kind, QStringLiteral("MyApplication"));
        QCOMPARE(s.details().causes.size(), 2);
        QCOMPARE(s.details().causes.at(1).field, QStringLiteral("spec.replicas"));
        QCOMPARE(s.details().causes.at(0).reason, QStringLiteral("FieldValueRequired"));
    }

    void shouldBuildTheServersInvalidMessage()
    {
        const Status s
            = Status::invalid(QStringLiteral("example.com"), QStringLiteral("MyApplication"), QStringLiteral("demo"),
                {{QStringLiteral("FieldValueRequired"), QStringLiteral("Required value"), QStringLiteral("spec.image")},
                    {QStringLiteral("FieldValueInvalid"),
                        QStringLiteral("Invalid value: 0: spec.replicas in body should be greater than or equal to 1"),
                        QStringLiteral("spec.replicas")}});
        QCOMPARE(s.message(),
            QStringLiteral("MyApplication.example.com \"demo\" is invalid: [spec.image: Required value, spec.replicas: "
                           "Invalid value: 0: spec.replicas in body should be greater than or equal to 1]"));
        const QJsonObject j = s.toJson();
        QCOMPARE(j.value(QLatin1String("status")).toString(), QStringLiteral("Failure"));
        QCOMPARE(j.value(QLatin1String("code")).toInt(), 422);
        QCOMPARE(Status::fromJson(j), s);
    }

    void shouldWriteStandardMessages_data()
    {
        QTest::addColumn<Status>("status");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("message");
        QTest::newRow("not found core") << Status::notFound({}, QStringLiteral("configmaps"), QStringLiteral("demo"))
                                        << 404 << "NotFound"
                                        << "configmaps \"demo\" not found";
        QTest::newRow("not found apps") << Status::notFound(
            QStringLiteral("apps"), QStringLiteral("deployments"), QStringLiteral("web"))
                                        << 404 << "NotFound"
                                        << "deployments.apps \"web\" not found";
        QTest::newRow("exists") << Status::alreadyExists({}, QStringLiteral("configmaps"), QStringLiteral("demo"))
                                << 409 << "AlreadyExists"
                                << "configmaps \"demo\" already exists";
        QTest::newRow("conflict") << Status::modifiedConflict({}, QStringLiteral("configmaps"), QStringLiteral("demo"))
                                  << 409 << "Conflict"
                                  << "Operation cannot be fulfilled on configmaps \"demo\": the object has been "
                                     "modified; please apply your changes to the latest version and try again";
        QTest::newRow("unauthorized") << Status::unauthorized() << 401 << "Unauthorized"
                                      << "Unauthorized";
        QTest::newRow("too many") << Status::tooManyRequests(QStringLiteral("slow down"), 2) << 429 << "TooManyRequests"
                                  << "slow down";
    }
    void shouldWriteStandardMessages()
    {
        QFETCH(Status, status);
        QFETCH(int, code);
        QFETCH(QString, reason);
        QFETCH(QString, message);
        QCOMPARE(status.code(), code);
        QCOMPARE(status.reason(), reason);
        QCOMPARE(status.message(), message);
    }

    void helpersClassifyByReasonAndCode()
    {
        QVERIFY(isNotFound(Status::notFound({}, QStringLiteral("pods"), QStringLiteral("x"))));
        QVERIFY(isAlreadyExists(Status::alreadyExists({}, QStringLiteral("pods"), QStringLiteral("x"))));
        QVERIFY(!isConflict(Status::alreadyExists({}, QStringLiteral("pods"), QStringLiteral("x"))));
        QVERIFY(isConflict(Status::modifiedConflict({}, QStringLiteral("pods"), QStringLiteral("x"))));
        QVERIFY(isGone(Status::expired(QStringLiteral("too old resource version: 1 (5)"))));
        QVERIFY(isExpired(Status::expired(QStringLiteral("x"))));
        QVERIFY(isGone(Status::gone(QStringLiteral("x"))));
        QVERIFY(isTooManyRequests(Status::tooManyRequests(QStringLiteral("x"), 1)));
        QCOMPARE(Status::tooManyRequests(QStringLiteral("x"), 3).details().retryAfterSeconds, 3);
        QVERIFY(isForbidden(Status::forbidden(
            {}, QStringLiteral("pods"), {}, QStringLiteral("User \"u\" cannot list resource \"pods\""))));
        QVERIFY(isUnauthorized(Status::unauthorized()));
        QVERIFY(isTransportError(
            Status::transport(QString::fromLatin1(StatusReason::ConnectionFailed), QStringLiteral("refused"))));
        QVERIFY(!isTransportError(Status::unauthorized()));
    }

    void shouldDescribeNonStatusBodies()
    {
        const Status s = Status::fromHttp(502, "<html>bad gateway</html>");
        QCOMPARE(s.code(), 502);
        QCOMPARE(s.reason(), QStringLiteral("InternalError"));
        QVERIFY(s.message().contains(QLatin1String("bad gateway")));
        const Status empty = Status::fromHttp(404, QByteArray());
        QVERIFY(isNotFound(empty));
    }

    void shouldKeepContinueTokenOfExpiredLists()
    {
        const Status s = Status::fromHttp(410,
            R"({"kind":"Status","apiVersion":"v1","metadata":{"continue":"tok"},"status":"Failure","message":"The provided continue parameter is too old","reason":"Expired","code":410})");
        QVERIFY(isExpired(s));
        QCOMPARE(s.continueToken(), QStringLiteral("tok"));
    }
};

QTEST_GUILESS_MAIN(tst_Status)
#include "tst_status.moc"
