// SPDX-License-Identifier: Apache-2.0
// Memory regression guard (a size ratio, never a time): 3,000 realistic Deployments synced from
// the embedded API server over HTTP into the Manager-style informer cache must be held in far
// fewer bytes than they take on the wire. Measured when written: ~1,040 bytes held per object
// against ~1,960 on the wire (opbench-bench sync, 10,000 objects). A change that makes the packed
// form or the store's structures grow past the bounds below fails here.
#include "engine/cache/informercache.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "tests/support/testapiserver.h"

#include <QJsonArray>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;

namespace {

constexpr int Count = 3000;
/// Bytes held per cached object may not exceed this share of the wire size...
constexpr double MaxShareOfWire = 0.70;
/// ...nor this many bytes.
constexpr qint64 MaxBytesPerObject = 1400;

QJsonObject deployment(int i)
{
    const QString name = QStringLiteral("guard-%1").arg(i, 5, 10, QLatin1Char('0'));
    const QJsonObject labels{{QStringLiteral("app.kubernetes.io/name"), name},
        {QStringLiteral("app.kubernetes.io/part-of"), QStringLiteral("memory-guard")},
        {QStringLiteral("team"), QStringLiteral("team-%1").arg(i % 17)}};
    const QJsonObject container{{QStringLiteral("name"), QStringLiteral("app")},
        {QStringLiteral("image"), QStringLiteral("registry.example.com/guard/%1:1.%2.0").arg(name).arg(i % 9)},
        {QStringLiteral("ports"),
            QJsonArray{QJsonObject{
                {QStringLiteral("containerPort"), 8080}, {QStringLiteral("name"), QStringLiteral("http")}}}},
        {QStringLiteral("env"),
            QJsonArray{
                QJsonObject{{QStringLiteral("name"), QStringLiteral("INSTANCE")}, {QStringLiteral("value"), name}}}},
        {QStringLiteral("resources"),
            QJsonObject{{QStringLiteral("requests"),
                QJsonObject{{QStringLiteral("cpu"), QStringLiteral("100m")},
                    {QStringLiteral("memory"), QStringLiteral("128Mi")}}}}}};
    return {{QStringLiteral("apiVersion"), QStringLiteral("apps/v1")},
        {QStringLiteral("kind"), QStringLiteral("Deployment")},
        {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}},
        {QStringLiteral("spec"),
            QJsonObject{{QStringLiteral("replicas"), 0},
                {QStringLiteral("selector"),
                    QJsonObject{{QStringLiteral("matchLabels"),
                        QJsonObject{{QStringLiteral("app.kubernetes.io/name"), name}}}}},
                {QStringLiteral("template"),
                    QJsonObject{{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("labels"), labels}}},
                        {QStringLiteral("spec"),
                            QJsonObject{{QStringLiteral("containers"), QJsonArray{container}}}}}}}}};
}

QCoro::Task<int> createAll(RestClient *client)
{
    const GroupVersionResource deployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
    int created = 0;
    for (int i = 0; i < Count; ++i) {
        GroupVersionResource gvr = deployments;
        const QString ns = QStringLiteral("default");
        Object obj = Object::fromJson(deployment(i));
        auto r = co_await client->create(std::move(gvr), ns, std::move(obj));
        if (r)
            ++created;
    }
    co_return created;
}

} // namespace

class tst_CacheMemory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldHoldSyncedObjectsInFarLessThanTheirWireSize()
    {
        testing::TestApiServer api;
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        auto config = loadConfig(api.kubeconfigPath());
        QVERIFY(config.ok());
        RestClient client(config.value());
        QCOMPARE(QCoro::waitFor(createAll(&client)), Count);

        // The wire size of what a LIST returns (defaults included, as the server stores them).
        auto raw = QCoro::waitFor(client.raw("GET", QStringLiteral("/apis/apps/v1/deployments")));
        QVERIFY(raw.ok());
        const double wirePerObject = double(raw->body.size()) / Count;

        InformerCacheOptions options;
        options.client = &client;
        InformerCache cache(std::move(options));
        Informer *informer
            = cache.informerFor({QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")}).value();
        cache.start();
        QTRY_VERIFY_WITH_TIMEOUT(informer->hasSynced(), 60000);
        QCOMPARE(informer->store().size(), qsizetype(Count));

        const double heldPerObject = double(informer->store().bytesHeld()) / Count;
        qInfo("held %.0f bytes per object, wire %.0f (%.0f %%)", heldPerObject, wirePerObject,
            100.0 * heldPerObject / wirePerObject);
        QVERIFY2(heldPerObject <= MaxShareOfWire * wirePerObject,
            qPrintable(QStringLiteral("%1 bytes held per object > %2 %% of %3 on the wire")
                           .arg(heldPerObject)
                           .arg(100 * MaxShareOfWire)
                           .arg(wirePerObject)));
        QVERIFY2(heldPerObject <= MaxBytesPerObject,
            qPrintable(QStringLiteral("%1 bytes held per object > %2").arg(heldPerObject).arg(MaxBytesPerObject)));
        cache.stop();
    }
};

QTEST_GUILESS_MAIN(tst_CacheMemory)
#include "tst_cachememory.moc"
