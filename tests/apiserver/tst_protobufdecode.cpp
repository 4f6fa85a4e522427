// SPDX-License-Identifier: Apache-2.0
// Kubernetes protobuf request bodies (kubectl >= 1.33 generators): real captured bodies decode to
// the expected JSON; hand-built bodies cover unknown fields, pointer zeros, IntOrString, Time,
// maps, and the 400/415 refusals.
#include "engine/apiserver/schema/protobufdecode.h"
#include "engine/apiserver/schema/protobufreader.h"

#include <QFile>
#include <QJsonDocument>
#include <QtTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

QByteArray readData(const QString &name)
{
    QFile f(QStringLiteral(OPBENCH_SOURCE_DIR "/tests/data/apiserver/protobuf/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read test data %s", qPrintable(f.fileName()));
    return f.readAll();
}

// Minimal protobuf writer for hand-built fixtures.
QByteArray varint(quint64 v)
{
    QByteArray out;
    do {
        quint8 b = v & 0x7f;
        v >>= 7;
        out.append(char(v ? (b | 0x80) : b));
    } while (v);
    return out;
}
QByteArray key(quint32 number, int wireType) { return varint((quint64(number) << 3) | quint64(wireType)); }
QByteArray bytesField(quint32 number, const QByteArray &payload)
{
    return key(number, 2) + varint(quint64(payload.size())) + payload;
}
QByteArray intField(quint32 number, quint64 v) { return key(number, 0) + varint(v); }
QByteArray mapEntry(quint32 number, const QByteArray &k, const QByteArray &v)
{
    return bytesField(number, bytesField(1, k) + bytesField(2, v));
}

QByteArray envelope(
    const QByteArray &apiVersion, const QByteArray &kind, const QByteArray &raw, const QByteArray &encoding = {})
{
    const QByteArray typeMeta = bytesField(1, apiVersion) + bytesField(2, kind);
    return QByteArray("k8s\0", 4) + bytesField(1, typeMeta) + bytesField(2, raw) + bytesField(3, encoding)
        + bytesField(4, QByteArray());
}

QByteArray metadata(const QByteArray &name)
{
    return bytesField(1, bytesField(1, name) + bytesField(2, {}) + intField(7, 0));
}

QJsonObject decodeOk(const QByteArray &body)
{
    auto r = decodeProtobufBody(body);
    if (!r) {
        qWarning("decode failed: %s", qPrintable(r.error().message()));
        return {};
    }
    return *r;
}

} // namespace

class TestProtobufDecode : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldDecodeBodiesCapturedFromKubectl_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *n :
            {"configmap", "secret", "secret-docker", "namespace", "deployment", "deployment-cmd", "deployment-multi"})
            QTest::newRow(n) << QString::fromLatin1(n);
    }
    void shouldDecodeBodiesCapturedFromKubectl()
    {
        QFETCH(QString, name);
        const QByteArray body = readData(QStringLiteral("kubectl133-%1.pb").arg(name));
        const QJsonObject want
            = QJsonDocument::fromJson(readData(QStringLiteral("kubectl133-%1.json").arg(name))).object();
        QVERIFY(!want.isEmpty());
        auto got = decodeProtobufBody(body);
        QVERIFY2(got, got ? "" : qPrintable(got.error().message()));
        QCOMPARE(
            QJsonDocument(*got).toJson(QJsonDocument::Compact), QJsonDocument(want).toJson(QJsonDocument::Compact));
    }

    void shouldDecodeAccessReviewsCapturedFromKubectl_data()
    {
        // kubectl 1.33 `auth can-i create deployments.apps --subresource=x` (name "status"),
        // `auth can-i get /logs`, `auth can-i --list`, `auth whoami`, captured in namespace default.
        QTest::addColumn<QByteArray>("hex");
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("can-i resource")
            << QByteArray("6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a6563744163"
                          "6365737352657669657712520a100a00"
                          "12001a0022002a0032003800420012340a320a0764656661756c7412066372656174651a0022002a106465706c6f"
                          "796d656e74732e617070733201783a06"
                          "7374617475731a08080012001a0020001a002200")
            << QByteArray(
                   R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{},"spec":{"resourceAttributes":)"
                   R"({"name":"status","namespace":"default","resource":"deployments.apps","subresource":"x","verb":"create"}}})");
        QTest::newRow("can-i path")
            << QByteArray("6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a6563744163"
                          "63657373526576696577122c0a100a00"
                          "12001a0022002a00320038004200120e120c0a052f6c6f677312036765741a08080012001a0020001a002200")
            << QByteArray(
                   R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{},"spec":{"nonResourceAttributes":)"
                   R"({"path":"/logs","verb":"get"}}})");
        QTest::newRow("can-i --list")
            << QByteArray("6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a6563745275"
                          "6c657352657669657712230a100a00"
                          "12001a0022002a0032003800420012090a0764656661756c741a04180022001a002200")
            << QByteArray(
                   R"({"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","metadata":{},"spec":{"namespace":"default"}})");
        QTest::newRow("whoami")
            << QByteArray("6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a65637452"
                          "6576696577121a0a100a0012001a00"
                          "22002a0032003800420012060a040a0012001a002200")
            << QByteArray(R"({"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview","metadata":{}})");
    }
    void shouldDecodeAccessReviewsCapturedFromKubectl()
    {
        QFETCH(QByteArray, hex);
        QFETCH(QByteArray, json);
        auto got = decodeProtobufBody(QByteArray::fromHex(hex));
        QVERIFY2(got, got ? "" : qPrintable(got.error().message()));
        QCOMPARE(QJsonDocument(*got).toJson(QJsonDocument::Compact),
            QJsonDocument::fromJson(json).toJson(QJsonDocument::Compact));
    }

    void shouldSkipUnknownFieldNumbers()
    {
        // Unknown numbers of every wire type, in the object and inside ObjectMeta.
        const QByteArray meta = bytesField(1,
            bytesField(1, "cm") + intField(90, 7) + key(91, 5) + QByteArray(4, 'x') + key(92, 1) + QByteArray(8, 'y')
                + bytesField(93, "ignored"));
        const QByteArray raw
            = meta + intField(99, 300) + bytesField(98, bytesField(1, "nested")) + mapEntry(2, "k", "v");
        const QJsonObject o = decodeOk(envelope("v1", "ConfigMap", raw));
        QCOMPARE(o.value(QLatin1String("metadata")).toObject(),
            (QJsonObject{{QStringLiteral("name"), QStringLiteral("cm")}}));
        QCOMPARE(o.value(QLatin1String("data")).toObject(), (QJsonObject{{QStringLiteral("k"), QStringLiteral("v")}}));
        QCOMPARE(o.keys(), (QStringList{"apiVersion", "data", "kind", "metadata"}));
    }

    void shouldKeepZeroValuesOfPointerFieldsOnly()
    {
        // replicas (*int32) = 0 stays; minReadySeconds (int32) = 0 and paused (bool) = false go.
        const QByteArray spec = intField(1, 0) + intField(5, 0) + intField(7, 0) + intField(6, 0);
        const QJsonObject o = decodeOk(envelope("apps/v1", "Deployment", metadata("d") + bytesField(2, spec)));
        QCOMPARE(o.value(QLatin1String("spec")).toObject(),
            (QJsonObject{{QStringLiteral("replicas"), 0}, {QStringLiteral("revisionHistoryLimit"), 0}}));
        const QJsonObject cm = decodeOk(envelope("v1", "ConfigMap", metadata("c") + intField(4, 0)));
        QCOMPARE(cm.value(QLatin1String("immutable")), QJsonValue(false));
    }

    void shouldConvertIntOrStringTimeBytesAndQuantities()
    {
        const QByteArray rolling
            = bytesField(1, intField(1, 0) + intField(2, 1)) + bytesField(2, intField(1, 1) + bytesField(3, "25%"));
        const QByteArray strategy = bytesField(1, "RollingUpdate") + bytesField(2, rolling);
        const QByteArray resources
            = mapEntry(1, "cpu", bytesField(1, "500m")) + mapEntry(2, "memory", bytesField(1, "64Mi"));
        const QByteArray container = bytesField(1, "c") + bytesField(2, "img") + bytesField(8, resources)
            + bytesField(7, bytesField(1, "A") + bytesField(2, "B")) + intField(16, 1);
        const QByteArray podSpec = bytesField(2, container) + intField(4, 30);
        const QByteArray meta
            = bytesField(1, bytesField(1, "d") + bytesField(8, intField(1, 1714557600)) + mapEntry(12, "note", "x"));
        const QByteArray spec = bytesField(4, strategy) + bytesField(3, bytesField(2, podSpec));
        const QJsonObject o = decodeOk(envelope("apps/v1", "Deployment", meta + bytesField(2, spec)));
        const QJsonObject m = o.value(QLatin1String("metadata")).toObject();
        QCOMPARE(m.value(QLatin1String("creationTimestamp")).toString(), QStringLiteral("2024-05-01T10:00:00Z"));
        QCOMPARE(m.value(QLatin1String("annotations")).toObject().value(QLatin1String("note")).toString(),
            QStringLiteral("x"));
        const QJsonObject s = o.value(QLatin1String("spec")).toObject();
        const QJsonObject ru
            = s.value(QLatin1String("strategy")).toObject().value(QLatin1String("rollingUpdate")).toObject();
        QCOMPARE(ru.value(QLatin1String("maxUnavailable")), QJsonValue(1));
        QCOMPARE(ru.value(QLatin1String("maxSurge")), QJsonValue(QStringLiteral("25%")));
        const QJsonObject ps = s.value(QLatin1String("template")).toObject().value(QLatin1String("spec")).toObject();
        QCOMPARE(ps.value(QLatin1String("terminationGracePeriodSeconds")), QJsonValue(30));
        const QJsonObject c = ps.value(QLatin1String("containers")).toArray().first().toObject();
        QCOMPARE(c.value(QLatin1String("resources"))
                     .toObject()
                     .value(QLatin1String("limits"))
                     .toObject()
                     .value(QLatin1String("cpu"))
                     .toString(),
            QStringLiteral("500m"));
        QCOMPARE(c.value(QLatin1String("env")).toArray().first().toObject().value(QLatin1String("value")).toString(),
            QStringLiteral("B"));
        QCOMPARE(c.value(QLatin1String("stdin")), QJsonValue(true));
        const QJsonObject secret
            = decodeOk(envelope("v1", "Secret", metadata("s") + mapEntry(2, "bin", QByteArray("\x00\xff", 2))));
        QCOMPARE(secret.value(QLatin1String("data")).toObject().value(QLatin1String("bin")).toString(),
            QStringLiteral("AP8="));
    }

    void shouldRefuseMalformedBodiesWith400_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("needle");
        const QByteArray good = readData(QStringLiteral("kubectl133-deployment.pb"));
        QTest::newRow("no magic") << good.mid(4) << QStringLiteral("k8s");
        QTest::newRow("truncated") << good.left(good.size() - 20) << QStringLiteral("claims");
        QTest::newRow("name as varint") << envelope("v1", "ConfigMap", bytesField(1, intField(1, 5)))
                                        << QStringLiteral("metadata.name");
        QTest::newRow("truncated varint")
            << envelope("v1", "ConfigMap", QByteArray("\x08\xff", 2)) << QStringLiteral("truncated varint");
    }
    void shouldRefuseMalformedBodiesWith400()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, needle);
        auto r = decodeProtobufBody(body);
        QVERIFY(!r);
        QCOMPARE(r.error().code(), 400);
        QVERIFY2(r.error().message().contains(needle), qPrintable(r.error().message()));
    }

    void shouldRefuseWhatItCannotDecodeWith415()
    {
        auto service = decodeProtobufBody(envelope("v1", "Service", metadata("svc")));
        QVERIFY(!service);
        QCOMPARE(service.error().code(), 415);
        QCOMPARE(service.error().reason(), QStringLiteral("UnsupportedMediaType"));
        QVERIFY2(
            service.error().message().contains(QLatin1String("v1 Service")), qPrintable(service.error().message()));
        QVERIFY(service.error().message().contains(QLatin1String("apps/v1 Deployment")));
        auto gzip = decodeProtobufBody(envelope("v1", "ConfigMap", metadata("c"), "gzip"));
        QVERIFY(!gzip);
        QCOMPARE(gzip.error().code(), 415);
        QVERIFY(gzip.error().message().contains(QLatin1String("\"gzip\"")));
    }

    void shouldReadFieldsWithoutOverrunning()
    {
        const QByteArray truncated("\x0a\x05"
                                   "ab",
            4); // claims 5 bytes, 2 present (the reader keeps a view)
        ProtobufReader r(truncated);
        ProtobufReader::Field f;
        QVERIFY(!r.next(&f));
        QVERIFY(r.error().contains(QLatin1String("claims 5 bytes")));
        const QByteArray group("\x0b", 1); // wire type 3 (start group)
        ProtobufReader groups(group);
        QVERIFY(!groups.next(&f));
        QVERIFY(groups.error().contains(QLatin1String("wire type 3")));
    }
};

QTEST_GUILESS_MAIN(TestProtobufDecode)
#include "tst_protobufdecode.moc"
