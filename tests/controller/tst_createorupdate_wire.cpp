// SPDX-License-Identifier: Apache-2.0
// createOrUpdate against a server that writes JSON the way kube-apiserver does (Go struct field
// order, not sorted keys), over real HTTP: an object already in the desired state is left alone.
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/controller/client.h"
#include "engine/controller/clientutil.h"
#include "tests/client/fakeserver.h"

#include <QJsonDocument>
#include <QTest>

using namespace opbench;
using namespace std::chrono_literals;
using opbench::test::FakeRequest;
using opbench::test::FakeResponse;
using opbench::test::FakeServer;

namespace {

// A ConfigMap as kube-apiserver encodes it: metadata in ObjectMeta's field order and data in
// insertion order, so neither is sorted.
const QByteArray kWireConfigMap
    = R"({"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm","namespace":"default",)"
      R"("uid":"7c2f5e9a-1b3d-4e6f-8a9b-0c1d2e3f4a5b","resourceVersion":"5","creationTimestamp":"2026-12-01T10:00:00Z",)"
      R"("labels":{"tier":"web","app":"shop"}},"data":{"mode":"fast","k":"v"}})";

Object withData(const Object &o, const QString &k, const QString &v)
{
    QJsonObject j = o.json();
    QJsonObject data = j.value(QLatin1String("data")).toObject();
    data.insert(k, v);
    j.insert(QStringLiteral("data"), data);
    return Object::fromJson(j);
}

Object bareConfigMap()
{
    return Object::fromJson(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), QStringLiteral("cm")},
                {QStringLiteral("namespace"), QStringLiteral("default")}}}});
}

} // namespace

class tst_CreateOrUpdateWire : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shouldNotWriteAnObjectAlreadyInSyncWhateverTheKeyOrder()
    {
        FakeServer server;
        int puts = 0;
        server.setHandler([&puts](const FakeRequest &req) {
            if (req.method == "GET" && req.hasQuery(QStringLiteral("watch"))) {
                FakeResponse r = FakeResponse::json(200, {});
                r.chunks = {
                    R"({"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"5"}}})"
                    "\n"};
                r.keepOpen = true;
                return r;
            }
            if (req.method == "GET" && req.path.endsWith("/configmaps"))
                return FakeResponse::json(200,
                    R"({"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[)"
                        + kWireConfigMap + "]}");
            if (req.method == "PUT") {
                ++puts;
                return FakeResponse::json(200, req.body);
            }
            return FakeResponse::json(
                404, R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404})");
        });
        QVERIFY(server.listen());
        RestConfig rc;
        rc.server = QUrl(server.url());
        RestClient rest(rc);
        InformerCacheOptions co;
        co.client = &rest;
        InformerCache cache(std::move(co));
        cache.start();
        Client client(&cache, &rest);

        // The mutate function edits through json()/fromJson() (sorted keys) and sets what is
        // already there: nothing to write.
        const auto inSync
            = [](const Object &o) -> Expected<Object> { return withData(o, QStringLiteral("k"), QStringLiteral("v")); };
        auto same = QCoro::waitFor(createOrUpdate(&client, {}, bareConfigMap(), inSync));
        QVERIFY2(same.ok(), same.ok() ? "" : qPrintable(same.error().toString()));
        QCOMPARE(operationResultName(same->result), QStringLiteral("unchanged"));
        QCOMPARE(puts, 0);

        const auto changed
            = [](const Object &o) -> Expected<Object> { return withData(o, QStringLiteral("k"), QStringLiteral("w")); };
        auto updated = QCoro::waitFor(createOrUpdate(&client, {}, bareConfigMap(), changed));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().toString()));
        QCOMPARE(operationResultName(updated->result), QStringLiteral("updated"));
        QCOMPARE(puts, 1);
    }
};

QTEST_GUILESS_MAIN(tst_CreateOrUpdateWire)
#include "tst_createorupdate_wire.moc"
