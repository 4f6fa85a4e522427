// SPDX-License-Identifier: Apache-2.0
// PATCH semantics: JSON patch, merge patch, strategic merge, apply, media types (§4).
#include "engine/apiserver/apply/jsonpatch.h"
#include "engine/apiserver/apply/patch.h"
#include "engine/apiserver/apply/strategicmerge.h"
#include "engine/apiserver/http/limits.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace opbench::apiserver;

namespace {

QJsonObject obj(const QByteArray &json)
{
    QJsonParseError err{};
    const QJsonDocument d = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError)
        qFatal("bad fixture %s: %s", json.constData(), qPrintable(err.errorString()));
    return d.object();
}

QByteArray compact(const QJsonObject &o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }

QByteArray normalized(const QByteArray &json) { return compact(obj(json)); }

const QByteArray kDeployment
    = "{\"metadata\":{\"name\":\"web\",\"finalizers\":[\"a\",\"b\"],"
      "\"ownerReferences\":[{\"uid\":\"u1\",\"name\":\"o1\"},{\"uid\":\"u2\",\"name\":\"o2\"}]},"
      "\"spec\":{\"replicas\":1,\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":1}},"
      "\"template\":{\"spec\":{\"tolerations\":[{\"key\":\"k1\"}],"
      "\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1\",\"env\":[{\"name\":\"A\",\"value\":\"1\"},{\"name\":"
      "\"B\",\"value\":\"2\"}],"
      "\"ports\":[{\"containerPort\":80,\"name\":\"http\"}],\"volumeMounts\":[{\"mountPath\":\"/"
      "data\",\"name\":\"d\"}]},"
      "{\"name\":\"side\",\"image\":\"busybox\"}]}}}}";

} // namespace

class tst_Patch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldMergePatch_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("null deletes") << QByteArray("{\"a\":1,\"b\":2}") << QByteArray("{\"a\":null}")
                                      << QByteArray("{\"b\":2}");
        QTest::newRow("objects merge") << QByteArray("{\"a\":{\"x\":1,\"y\":2}}")
                                       << QByteArray("{\"a\":{\"y\":3,\"z\":4}}")
                                       << QByteArray("{\"a\":{\"x\":1,\"y\":3,\"z\":4}}");
        QTest::newRow("arrays replace") << QByteArray("{\"a\":[1,2,3]}") << QByteArray("{\"a\":[4]}")
                                        << QByteArray("{\"a\":[4]}");
        QTest::newRow("scalar replaces object")
            << QByteArray("{\"a\":{\"x\":1}}") << QByteArray("{\"a\":5}") << QByteArray("{\"a\":5}");
        QTest::newRow("object replaces scalar, nulls inside dropped")
            << QByteArray("{\"a\":5}") << QByteArray("{\"a\":{\"b\":null,\"c\":1}}") << QByteArray("{\"a\":{\"c\":1}}");
    }
    void shouldMergePatch()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QByteArray, patch);
        QFETCH(QByteArray, expected);
        const auto r = applyPatch(PatchKind::MergePatch, obj(doc), patch, true);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QCOMPARE(compact(*r), normalized(expected));
    }

    void shouldApplyJsonPatch_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<QByteArray>("expected");
        const QByteArray doc("{\"spec\":{\"replicas\":1,\"list\":[\"a\",\"b\"]},\"metadata\":{\"labels\":{\"x/"
                             "y\":\"1\",\"t~n\":\"2\"}}}");
        QTest::newRow("replace") << doc << QByteArray("[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}]")
                                 << QByteArray("{\"spec\":{\"replicas\":3,\"list\":[\"a\",\"b\"]},\"metadata\":{"
                                               "\"labels\":{\"x/y\":\"1\",\"t~n\":\"2\"}}}");
        QTest::newRow("add appends with -")
            << doc << QByteArray("[{\"op\":\"add\",\"path\":\"/spec/list/-\",\"value\":\"c\"}]")
            << QByteArray("{\"spec\":{\"replicas\":1,\"list\":[\"a\",\"b\",\"c\"]},\"metadata\":{\"labels\":{\"x/"
                          "y\":\"1\",\"t~n\":\"2\"}}}");
        QTest::newRow("add inserts at index")
            << doc << QByteArray("[{\"op\":\"add\",\"path\":\"/spec/list/0\",\"value\":\"z\"}]")
            << QByteArray("{\"spec\":{\"replicas\":1,\"list\":[\"z\",\"a\",\"b\"]},\"metadata\":{\"labels\":{\"x/"
                          "y\":\"1\",\"t~n\":\"2\"}}}");
        QTest::newRow("escapes ~1 and ~0")
            << doc
            << QByteArray("[{\"op\":\"remove\",\"path\":\"/metadata/labels/x~1y\"},{\"op\":\"replace\",\"path\":\"/"
                          "metadata/labels/t~0n\",\"value\":\"3\"}]")
            << QByteArray(
                   "{\"spec\":{\"replicas\":1,\"list\":[\"a\",\"b\"]},\"metadata\":{\"labels\":{\"t~n\":\"3\"}}}");
        QTest::newRow("move, copy, test")
            << doc
            << QByteArray("[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1},{\"op\":\"copy\",\"from\":\"/"
                          "spec/replicas\",\"path\":\"/spec/copy\"},"
                          "{\"op\":\"move\",\"from\":\"/spec/list/1\",\"path\":\"/spec/moved\"}]")
            << QByteArray("{\"spec\":{\"replicas\":1,\"copy\":1,\"moved\":\"b\",\"list\":[\"a\"]},\"metadata\":{"
                          "\"labels\":{\"x/y\":\"1\",\"t~n\":\"2\"}}}");
    }
    void shouldApplyJsonPatch()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QByteArray, patch);
        QFETCH(QByteArray, expected);
        const auto r = applyPatch(PatchKind::JsonPatch, obj(doc), patch, false);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QCOMPARE(compact(*r), normalized(expected));
    }

    void shouldRefuseBadJsonPatches_data()
    {
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("not JSON") << QByteArray("[{") << 400 << QStringLiteral("error decoding patch");
        QTest::newRow("not an array") << QByteArray("{\"op\":\"add\"}") << 400 << QStringLiteral("JSON array");
        QTest::newRow("unknown op") << QByteArray("[{\"op\":\"frob\",\"path\":\"/a\"}]") << 400
                                    << QStringLiteral("unknown op \"frob\"");
        QTest::newRow("missing value") << QByteArray("[{\"op\":\"add\",\"path\":\"/a\"}]") << 400
                                       << QStringLiteral("missing \"value\"");
        QTest::newRow("missing path") << QByteArray("[{\"op\":\"replace\",\"path\":\"/spec/nope\",\"value\":1}]") << 422
                                      << QStringLiteral(
                                             "JSON patch operation 0 (replace \"/spec/nope\") does not apply");
        QTest::newRow("failed test names index") << QByteArray(
            "[{\"op\":\"add\",\"path\":\"/a\",\"value\":1},{\"op\":\"test\",\"path\":\"/a\",\"value\":2}]")
                                                 << 422 << QStringLiteral("JSON patch operation 1 (test \"/a\")");
        QTest::newRow("index out of range") << QByteArray("[{\"op\":\"add\",\"path\":\"/spec/list/5\",\"value\":1}]")
                                            << 422 << QStringLiteral("out of bounds");
    }
    void shouldRefuseBadJsonPatches()
    {
        QFETCH(QByteArray, patch);
        QFETCH(int, code);
        QFETCH(QString, messagePart);
        const auto r = applyPatch(PatchKind::JsonPatch, obj("{\"spec\":{\"list\":[1]}}"), patch, false);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), code);
        QVERIFY2(r.error().message().contains(messagePart), qPrintable(r.error().message()));
    }

    void shouldRefuseTooManyOperations()
    {
        QJsonArray ops;
        for (int i = 0; i <= kMaxJsonPatchOperations; ++i)
            ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("test")},
                {QStringLiteral("path"), QStringLiteral("")}, {QStringLiteral("value"), 1}});
        const auto r = applyJsonPatch(QJsonObject(), ops);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), 413);
        QCOMPARE(r.error().reason(), QStringLiteral("RequestEntityTooLarge"));
    }

    void shouldBoundWhatCopiesAddUpTo()
    {
        // Each `copy` of /spec into itself doubles the document: 60 such operations (3 KB of
        // patch) would make 2^60 copies of the seed. Values are shared while patching, so the
        // harm comes later (validation, storage, the response); the copies are refused once
        // they add up to kMaxDecodedBytes (limits.h).
        QJsonArray ops;
        for (int i = 0; i < 60; ++i)
            ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("copy")},
                {QStringLiteral("from"), QStringLiteral("/spec")},
                {QStringLiteral("path"), QStringLiteral("/spec/c%1").arg(i)}});
        const QJsonObject seed{{QStringLiteral("spec"), QJsonObject{{QStringLiteral("x"), QString(1000, u'x')}}}};
        const auto r = applyJsonPatch(seed, ops);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), 413);
        QCOMPARE(r.error().message(),
            QStringLiteral("the values copied by JSON patch operations 0 to 13 add up to more than 12582912 bytes "
                           "(4 times the request body limit of 3145728 bytes)"));
        // A few copies of a small value are fine.
        ops = QJsonArray();
        for (int i = 0; i < 8; ++i)
            ops.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("copy")},
                {QStringLiteral("from"), QStringLiteral("/spec")},
                {QStringLiteral("path"), QStringLiteral("/spec/c%1").arg(i)}});
        const auto fine = applyJsonPatch(seed, ops);
        QVERIFY(fine.ok());
        QVERIFY(decodedSize(*fine, kMaxDecodedBytes) > qint64(256) * 1000);
    }

    void shouldMeasureDecodedSizeAsCompactJson_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("empty") << QByteArray("{}");
        QTest::newRow("strings") << QByteArray("{\"a\":\"xyz\",\"bb\":[\"\",\"q\"],\"c\":{}}");
        QTest::newRow("literals") << QByteArray("{\"t\":true,\"f\":false,\"n\":null,\"a\":[]}");
    }
    void shouldMeasureDecodedSizeAsCompactJson()
    {
        QFETCH(QByteArray, json);
        QCOMPARE(decodedSize(obj(json), 1000), json.size());
        QVERIFY(decodedSize(obj(json), 3) > 3 || json.size() <= 3);
    }

    void shouldStrategicMerge_data()
    {
        QTest::addColumn<QByteArray>("patch");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("containers merge by name, image changes")
            << QByteArray(
                   "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:2\"}]}}}}")
            << "/spec/template/spec/containers/0/image" << QByteArray("\"nginx:2\"");
        QTest::newRow("other container kept") << QByteArray(
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:2\"}]}}}}")
                                              << "/spec/template/spec/containers/1/name" << QByteArray("\"side\"");
        QTest::newRow("env merges by name")
            << QByteArray("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"env\":[{\"name\":"
                          "\"B\",\"value\":\"20\"},{\"name\":\"C\",\"value\":\"3\"}]}]}}}}")
            << "/spec/template/spec/containers/0/env"
            << QByteArray("[{\"name\":\"A\",\"value\":\"1\"},{\"name\":\"B\",\"value\":\"20\"},{\"name\":\"C\","
                          "\"value\":\"3\"}]");
        QTest::newRow("$patch delete in a list") << QByteArray(
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"side\",\"$patch\":\"delete\"}]}}}}")
                                                 << "/spec/template/spec/containers" << QByteArray("\"1 item\"");
        QTest::newRow("ports merge by containerPort")
            << QByteArray("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"ports\":[{"
                          "\"containerPort\":443,\"name\":\"https\"}]}]}}}}")
            << "/spec/template/spec/containers/0/ports"
            << QByteArray("[{\"containerPort\":80,\"name\":\"http\"},{\"containerPort\":443,\"name\":\"https\"}]");
        QTest::newRow("volumeMounts merge by mountPath")
            << QByteArray("{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"volumeMounts\":[{"
                          "\"mountPath\":\"/data\",\"readOnly\":true}]}]}}}}")
            << "/spec/template/spec/containers/0/volumeMounts"
            << QByteArray("[{\"mountPath\":\"/data\",\"name\":\"d\",\"readOnly\":true}]");
        QTest::newRow("tolerations replace atomically")
            << QByteArray("{\"spec\":{\"template\":{\"spec\":{\"tolerations\":[{\"key\":\"k2\"}]}}}}")
            << "/spec/template/spec/tolerations" << QByteArray("[{\"key\":\"k2\"}]");
        QTest::newRow("ownerReferences merge by uid")
            << QByteArray("{\"metadata\":{\"ownerReferences\":[{\"uid\":\"u2\",\"name\":\"renamed\"},{\"uid\":\"u3\","
                          "\"name\":\"o3\"}]}}")
            << "/metadata/ownerReferences"
            << QByteArray("[{\"uid\":\"u1\",\"name\":\"o1\"},{\"uid\":\"u2\",\"name\":\"renamed\"},{\"uid\":\"u3\","
                          "\"name\":\"o3\"}]");
        QTest::newRow("finalizers merge as a set") << QByteArray("{\"metadata\":{\"finalizers\":[\"b\",\"c\"]}}")
                                                   << "/metadata/finalizers" << QByteArray("[\"a\",\"b\",\"c\"]");
        QTest::newRow("$deleteFromPrimitiveList")
            << QByteArray("{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"a\"]}}") << "/metadata/finalizers"
            << QByteArray("[\"b\"]");
        QTest::newRow("$patch replace on a map")
            << QByteArray("{\"spec\":{\"strategy\":{\"$patch\":\"replace\",\"type\":\"Recreate\"}}}")
            << "/spec/strategy" << QByteArray("{\"type\":\"Recreate\"}");
        QTest::newRow("$retainKeys") << QByteArray(
            "{\"spec\":{\"strategy\":{\"$retainKeys\":[\"type\"],\"type\":\"Recreate\"}}}")
                                     << "/spec/strategy" << QByteArray("{\"type\":\"Recreate\"}");
        QTest::newRow("null deletes a key") << QByteArray("{\"spec\":{\"strategy\":{\"rollingUpdate\":null}}}")
                                            << "/spec/strategy" << QByteArray("{\"type\":\"RollingUpdate\"}");
        QTest::newRow("$patch delete on a map") << QByteArray("{\"spec\":{\"strategy\":{\"$patch\":\"delete\"}}}")
                                                << "/spec" << QByteArray("\"no strategy\"");
        QTest::newRow("$setElementOrder orders the merged list")
            << QByteArray("{\"spec\":{\"template\":{\"spec\":{\"$setElementOrder/"
                          "containers\":[{\"name\":\"side\"},{\"name\":\"app\"}],"
                          "\"containers\":[{\"name\":\"app\",\"image\":\"nginx:3\"}]}}}}")
            << "/spec/template/spec/containers/0/name" << QByteArray("\"side\"");
        QTest::newRow("$patch replace element replaces the list") << QByteArray(
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"$patch\":\"replace\"},{\"name\":\"only\",\"image\":"
            "\"x\"}]}}}}") << "/spec/template/spec/containers" << QByteArray("[{\"name\":\"only\",\"image\":\"x\"}]");
    }
    void shouldStrategicMerge()
    {
        QFETCH(QByteArray, patch);
        QFETCH(QString, pointer);
        QFETCH(QByteArray, expected);
        const auto r = applyPatch(PatchKind::StrategicMerge, obj(kDeployment), patch, false);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
        QVERIFY2(!compact(*r).contains("$"), compact(*r).constData()); // no directive survives
        QJsonValue cur = *r;
        const QStringList tokens = parseJsonPointer(pointer).value_or(QStringList());
        for (const QString &tok : tokens)
            cur = cur.isArray() ? cur.toArray().at(tok.toInt()) : cur.toObject().value(tok);
        if (expected == "\"1 item\"") {
            QCOMPARE(cur.toArray().size(), 1);
            QCOMPARE(cur.toArray().at(0).toObject().value(QLatin1String("name")).toString(), QStringLiteral("app"));
        } else if (expected == "\"no strategy\"") {
            QVERIFY(!cur.toObject().contains(QLatin1String("strategy")));
            QCOMPARE(cur.toObject().value(QLatin1String("replicas")).toInt(), 1);
        } else {
            const QByteArray got = QJsonDocument(QJsonArray{cur}).toJson(QJsonDocument::Compact);
            QCOMPARE(got, QJsonDocument::fromJson('[' + expected + ']').toJson(QJsonDocument::Compact));
        }
    }

    void shouldRefuseMergeListElementWithoutKey()
    {
        const auto r = applyPatch(PatchKind::StrategicMerge, obj(kDeployment),
            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"image\":\"x\"}]}}}}", false);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), 400);
        QVERIFY(r.error().message().contains(QLatin1String("merge key: name")));
    }

    void shouldDescribeTheMergeKeyTable()
    {
        QCOMPARE(strategicMergeKey(QStringLiteral("spec.template.spec.containers")),
            std::optional<QString>(QStringLiteral("name")));
        QCOMPARE(strategicMergeKey(QStringLiteral("spec.containers.ports")),
            std::optional<QString>(QStringLiteral("containerPort")));
        QCOMPARE(strategicMergeKey(QStringLiteral("spec.ports")), std::optional<QString>(QStringLiteral("port")));
        QCOMPARE(
            strategicMergeKey(QStringLiteral("status.conditions")), std::optional<QString>(QStringLiteral("type")));
        QCOMPARE(strategicMergeKey(QStringLiteral("spec.template.spec.tolerations")), std::nullopt);
        QCOMPARE(strategicMergeKey(QStringLiteral("spec.xenv")), std::nullopt);
    }

    void shouldMapMediaTypes_data()
    {
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<int>("kind");
        QTest::newRow("json patch") << QByteArray("application/json-patch+json") << int(PatchKind::JsonPatch);
        QTest::newRow("merge with charset")
            << QByteArray("application/merge-patch+json; charset=utf-8") << int(PatchKind::MergePatch);
        QTest::newRow("strategic") << QByteArray("application/strategic-merge-patch+json")
                                   << int(PatchKind::StrategicMerge);
        QTest::newRow("apply") << QByteArray("application/apply-patch+yaml") << int(PatchKind::Apply);
        QTest::newRow("plain json") << QByteArray("application/json") << int(PatchKind::Unknown);
    }
    void shouldMapMediaTypes()
    {
        QFETCH(QByteArray, contentType);
        QFETCH(int, kind);
        QCOMPARE(int(mediaTypePatchKind(contentType)), kind);
    }

    void shouldAnswer415ForStrategicMergeOnCustomResources()
    {
        const auto r = applyPatch(PatchKind::StrategicMerge, obj("{\"spec\":{}}"), "{\"spec\":{\"a\":1}}", true);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code(), 415);
        QCOMPARE(r.error().reason(), QStringLiteral("UnsupportedMediaType"));
        QCOMPARE(r.error().message(),
            QStringLiteral("the body of the request was in an unknown format - accepted media types include: "
                           "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"));
    }

    void shouldValidatePatchOptions()
    {
        QVERIFY(validatePatchOptions(PatchKind::MergePatch, QString(), false).ok());
        QVERIFY(validatePatchOptions(PatchKind::Apply, QStringLiteral("kubectl"), true).ok());
        const auto noManager = validatePatchOptions(PatchKind::Apply, QString(), false);
        QVERIFY(!noManager.ok());
        QCOMPARE(noManager.error().code(), 422);
        QCOMPARE(noManager.error().message(),
            QStringLiteral(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"));
        const auto force = validatePatchOptions(PatchKind::MergePatch, QString(), true);
        QCOMPARE(force.error().message(),
            QStringLiteral("PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for "
                           "non-apply patch"));
    }

    void shouldServerSideApplyCommonCases()
    {
        const QJsonObject applied
            = obj("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
                  "\"spec\":{\"replicas\":3,\"template\":{\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":"
                  "\"nginx:9\"}]}}}}");
        const auto created = applyServerSide(std::nullopt, applied, false);
        QVERIFY(created.ok());
        QCOMPARE(*created, applied);
        const auto merged = applyServerSide(obj(kDeployment), applied, false);
        QVERIFY(merged.ok());
        const QJsonObject spec = merged->value(QLatin1String("spec")).toObject();
        QCOMPARE(spec.value(QLatin1String("replicas")).toInt(), 3);
        const QJsonArray containers = spec.value(QLatin1String("template"))
                                          .toObject()
                                          .value(QLatin1String("spec"))
                                          .toObject()
                                          .value(QLatin1String("containers"))
                                          .toArray();
        QCOMPARE(containers.size(), 2);
        QCOMPARE(containers.at(0).toObject().value(QLatin1String("image")).toString(), QStringLiteral("nginx:9"));
        const auto noKind = applyServerSide(std::nullopt, obj("{\"metadata\":{\"name\":\"x\"}}"), false);
        QCOMPARE(noKind.error().code(), 400);
    }
};

QTEST_GUILESS_MAIN(tst_Patch)
#include "tst_patch.moc"
