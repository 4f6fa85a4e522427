// SPDX-License-Identifier: Apache-2.0
// Metadata-only informers (PartialObjectMetadata lists and watches) against the embedded API
// server over real HTTP: the store holds the kind's apiVersion/kind and metadata only, follows
// adds, updates and deletes, costs far fewer bytes than the full informer of the same objects,
// and lives next to the full informer of the same kind in the InformerCache (controller-runtime's
// metadata informer map).
#include "engine/cache/informercache.h"
#include "engine/cache/reflector.h"
#include "engine/client/restclient.h"
#include "tests/client/fakeserver.h"
#include "tests/support/testapiserver.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using testing::TestApiServer;

namespace {
const GroupVersionResource ConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const GroupVersionKind ConfigMapKind{QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")};
const QString Default = QStringLiteral("default");

/// A ConfigMap with `dataBytes` bytes of data, a label, and (when `owner` is given) an owner reference.
Object configMap(const QString &name, int dataBytes, const QString &label, const Object &owner = {})
{
    QJsonObject meta{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), Default},
        {QStringLiteral("labels"), QJsonObject{{QStringLiteral("tier"), label}}}};
    if (!owner.isNull())
        meta.insert(QStringLiteral("ownerReferences"),
            QJsonArray{QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("name"), owner.name()},
                {QStringLiteral("uid"), owner.uid()}, {QStringLiteral("controller"), true}}});
    return Object::fromJson({{QStringLiteral("apiVersion"), QStringLiteral("v1")},
        {QStringLiteral("kind"), QStringLiteral("ConfigMap")}, {QStringLiteral("metadata"), meta},
        {QStringLiteral("data"), QJsonObject{{QStringLiteral("payload"), QString(dataBytes, u'x')}}}});
}

Object relabelled(const Object &o, const QString &label)
{
    QJsonObject j = o.json();
    QJsonObject meta = j.value(QLatin1String("metadata")).toObject();
    meta.insert(QStringLiteral("labels"), QJsonObject{{QStringLiteral("tier"), label}});
    j.insert(QStringLiteral("metadata"), meta);
    return Object::fromJson(j);
}

QStringList topLevelKeys(const Object &o)
{
    QStringList keys = o.json().keys();
    keys.sort();
    return keys;
}

const QStringList MetadataOnlyKeys{QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata")};
} // namespace

class tst_MetadataInformer : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<TestApiServer> m_api;
    std::unique_ptr<RestClient> m_client;

    Object create(const Object &o)
    {
        auto r = QCoro::waitFor(m_client->create(ConfigMaps, Default, o));
        if (!r.ok())
            qWarning("create %s: %s", qPrintable(o.name()), qPrintable(r.error().message()));
        return r.ok() ? *r : Object();
    }

    InformerOptions informerOptions(bool metadataOnly)
    {
        InformerOptions io;
        io.resource = ConfigMaps;
        io.kind = QStringLiteral("ConfigMap");
        io.namespaceName = Default;
        io.client = m_client.get();
        io.metadataOnly = metadataOnly;
        return io;
    }

    /// The body size of a LIST of the ConfigMaps in default with `accept`.
    qint64 wireBytes(const QByteArray &accept)
    {
        QNetworkAccessManager nam;
        QNetworkRequest req = m_api->request(QStringLiteral("/api/v1/namespaces/default/configmaps"));
        req.setRawHeader("Accept", accept);
        QNetworkReply *reply = nam.get(req);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!done.wait(10000))
            return -1;
        const qint64 n = reply->readAll().size();
        reply->deleteLater();
        return n;
    }

private Q_SLOTS:
    void init()
    {
        m_api = std::make_unique<TestApiServer>();
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY(config.ok());
        m_client = std::make_unique<RestClient>(std::move(*config));
    }
    void cleanup()
    {
        m_client.reset();
        m_api.reset();
    }

    void shouldSyncAndFollowChangesWithMetadataOnly()
    {
        const Object owner = create(configMap(QStringLiteral("owner"), 16, QStringLiteral("a")));
        QVERIFY(!owner.isNull());
        const Object child = create(configMap(QStringLiteral("child"), 4096, QStringLiteral("a"), owner));
        QVERIFY(!child.isNull());

        Informer informer(informerOptions(true));
        QStringList events;
        ResourceEventHandlerFuncs h;
        h.addFunc = [&](const Object &o, bool) { events << QStringLiteral("add ") + o.name(); };
        h.updateFunc = [&](const Object &, const Object &n) {
            events << QStringLiteral("update ") + n.name() + u' ' + n.labels().value(QStringLiteral("tier"));
        };
        h.deleteFunc = [&](const Object &o, bool) {
            events << QStringLiteral("delete ") + o.name() + u' ' + topLevelKeys(o).join(u',');
        };
        const Informer::HandlerId id = informer.addEventHandler(&h);
        informer.start();
        QTRY_VERIFY_WITH_TIMEOUT(informer.hasSynced(), 10000);
        QCOMPARE(informer.store().size(), qsizetype(2));

        // The kind's apiVersion/kind (controller-runtime's GVK fix-up) and the metadata; no data.
        const Object cached = informer.store().get(QStringLiteral("default/child"));
        QVERIFY(!cached.isNull());
        QCOMPARE(topLevelKeys(cached), MetadataOnlyKeys);
        QCOMPARE(cached.apiVersion(), QStringLiteral("v1"));
        QCOMPARE(cached.kind(), QStringLiteral("ConfigMap"));
        QCOMPARE(cached.resourceVersion(), child.resourceVersion());
        QCOMPARE(cached.uid(), child.uid());
        QCOMPARE(cached.labels().value(QStringLiteral("tier")), QStringLiteral("a"));
        QCOMPARE(cached.ownerReferences().size(), 1);
        QCOMPARE(cached.ownerReferences().first().uid, owner.uid());
        QVERIFY(cached.controllerReference().has_value());
        QVERIFY(cached.json()
                    .value(QLatin1String("metadata"))
                    .toObject()
                    .value(QLatin1String("managedFields"))
                    .isUndefined());

        // Adds, updates and deletes arrive through the metadata-only watch, in the same form.
        const Object added = create(configMap(QStringLiteral("late"), 4096, QStringLiteral("b")));
        QVERIFY(!added.isNull());
        QTRY_VERIFY(!informer.store().get(QStringLiteral("default/late")).isNull());
        const Object late = informer.store().get(QStringLiteral("default/late"));
        QCOMPARE(topLevelKeys(late), MetadataOnlyKeys);
        QCOMPARE(late.kind(), QStringLiteral("ConfigMap"));

        auto updated = QCoro::waitFor(m_client->update(ConfigMaps, Default, relabelled(child, QStringLiteral("c"))));
        QVERIFY(updated.ok());
        QTRY_COMPARE(
            informer.store().get(QStringLiteral("default/child")).resourceVersion(), updated->resourceVersion());
        const Object after = informer.store().get(QStringLiteral("default/child"));
        QCOMPARE(after.labels().value(QStringLiteral("tier")), QStringLiteral("c"));
        QCOMPARE(topLevelKeys(after), MetadataOnlyKeys);

        QVERIFY(QCoro::waitFor(m_client->remove(ConfigMaps, Default, QStringLiteral("late"))).ok());
        QTRY_VERIFY(informer.store().get(QStringLiteral("default/late")).isNull());
        QTRY_VERIFY(events.contains(QStringLiteral("delete late apiVersion,kind,metadata")));
        QVERIFY(events.contains(QStringLiteral("add child")));
        QVERIFY(events.contains(QStringLiteral("add late")));
        QVERIFY(events.contains(QStringLiteral("update child c")));
        informer.removeEventHandler(id);
        informer.stop();
    }

    void shouldHoldFarFewerBytesThanTheFullInformer()
    {
        constexpr int Count = 200;
        constexpr int DataBytes = 4096;
        for (int i = 0; i < Count; ++i)
            QVERIFY(!create(configMap(QStringLiteral("cm-%1").arg(i, 3, 10, QLatin1Char('0')), DataBytes,
                                QStringLiteral("t%1").arg(i % 5)))
                         .isNull());

        Informer full(informerOptions(false));
        Informer meta(informerOptions(true));
        full.start();
        meta.start();
        QTRY_VERIFY_WITH_TIMEOUT(full.hasSynced() && meta.hasSynced(), 20000);
        QCOMPARE(full.store().size(), qsizetype(Count));
        QCOMPARE(meta.store().size(), qsizetype(Count));

        const double wireFull = double(wireBytes("application/json")) / Count;
        const double wireMeta
            = double(wireBytes("application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"))
            / Count;
        qInfo("on the wire (LIST): %.0f bytes per object full, %.0f as PartialObjectMetadataList", wireFull, wireMeta);
        QVERIFY(wireMeta > 0 && wireMeta * 4 < wireFull);
        const double fullPerObject = double(full.store().bytesHeld()) / Count;
        const double metaPerObject = double(meta.store().bytesHeld()) / Count;
        qInfo("ConfigMaps with %d bytes of data: %.0f bytes held per object by the full informer, %.0f by the "
              "metadata-only one (%.1f %%)",
            DataBytes, fullPerObject, metaPerObject, 100.0 * metaPerObject / fullPerObject);
        // The full store holds the data; the metadata-only one must not (a ratio, not a time).
        QVERIFY2(fullPerObject > DataBytes, qPrintable(QString::number(fullPerObject)));
        QVERIFY2(metaPerObject * 4 < fullPerObject,
            qPrintable(QStringLiteral("%1 vs %2").arg(metaPerObject).arg(fullPerObject)));
        QVERIFY(full.store().get(QStringLiteral("default/cm-007")).json().contains(QLatin1String("data")));
        QVERIFY(!meta.store().get(QStringLiteral("default/cm-007")).json().contains(QLatin1String("data")));
        full.stop();
        meta.stop();
    }

    void shouldKeepFullAndMetadataInformersOfOneKindApart()
    {
        QVERIFY(!create(configMap(QStringLiteral("both"), 2048, QStringLiteral("x"))).isNull());
        InformerCacheOptions o;
        o.client = m_client.get();
        InformerCache cache(std::move(o));
        cache.start();

        // Reads pick the informer: getMetadata creates only the metadata-only one.
        auto meta = QCoro::waitFor(cache.getMetadata(ConfigMapKind, Default, QStringLiteral("both")));
        QVERIFY2(meta.ok(), meta.ok() ? "" : qPrintable(meta.error().message()));
        QCOMPARE(topLevelKeys(*meta), MetadataOnlyKeys);
        QCOMPARE(meta->kind(), QStringLiteral("ConfigMap"));
        QCOMPARE(cache.informers().size(), 1);
        QVERIFY(cache.kinds().isEmpty());
        QVERIFY(cache.metadataKinds() == QList<GroupVersionKind>{ConfigMapKind});

        auto full = QCoro::waitFor(cache.get(ConfigMapKind, Default, QStringLiteral("both")));
        QVERIFY(full.ok());
        QVERIFY(full->json().contains(QLatin1String("data")));
        QCOMPARE(cache.informers().size(), 2);
        QVERIFY(cache.kinds() == QList<GroupVersionKind>{ConfigMapKind});

        Informer *fullInformer = cache.informerFor(ConfigMapKind).value();
        Informer *metaInformer = cache.informerFor(ConfigMapKind, ObjectProjection::Metadata).value();
        QVERIFY(fullInformer != metaInformer);
        QVERIFY(!fullInformer->options().metadataOnly);
        QVERIFY(metaInformer->options().metadataOnly);

        // Both follow the server; each keeps its own form.
        QVERIFY(!create(configMap(QStringLiteral("next"), 2048, QStringLiteral("y"))).isNull());
        QTRY_COMPARE(QCoro::waitFor(cache.listMetadata(ConfigMapKind)).value().size(), 2);
        QTRY_COMPARE(QCoro::waitFor(cache.list(ConfigMapKind)).value().size(), 2);
        CacheListOptions byLabel;
        byLabel.labelSelector = LabelSelector::parse(QStringLiteral("tier=y")).value();
        const QList<Object> selected = QCoro::waitFor(cache.listMetadata(ConfigMapKind, byLabel)).value();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().name(), QStringLiteral("next"));
        QCOMPARE(topLevelKeys(selected.first()), MetadataOnlyKeys);
        const QList<Object> fullObjects = QCoro::waitFor(cache.list(ConfigMapKind)).value();
        for (const Object &each : fullObjects)
            QVERIFY2(each.json().contains(QLatin1String("data")), each.toJsonBytes().constData());
        QVERIFY(cache.hasSynced());
        cache.stop();
    }

    void shouldReportARefusalAndKeepTrying()
    {
        // A server that serves neither PartialObjectMetadata nor JSON for it (406): the reflector
        // says why, backs off and retries, and the informer never claims to be synced.
        test::FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const test::FakeRequest &) {
            return test::FakeResponse::json(406,
                R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable",)"
                R"("message":"only application/yaml is served","code":406})");
        });
        RestConfig cfg;
        cfg.server = QUrl(server.url());
        cfg.timeout = std::chrono::seconds(5);
        RestClient client(cfg);
        InformerOptions io = informerOptions(true);
        io.client = &client;
        Informer informer(io);
        informer.start();
        QTRY_VERIFY(informer.reflector() && informer.reflector()->lastError().has_value());
        const Status error = *informer.reflector()->lastError();
        QCOMPARE(error.code(), 406);
        QVERIFY2(error.message().contains(QLatin1String("PartialObjectMetadata")), qPrintable(error.message()));
        QCOMPARE(informer.reflector()->state(), Reflector::State::BackingOff);
        QVERIFY(!informer.hasSynced());
        QVERIFY(!server.requests.isEmpty());
        QVERIFY(server.requests.first().headers.value("accept").contains("as=PartialObjectMetadataList"));
        informer.stop();
    }
};

QTEST_GUILESS_MAIN(tst_MetadataInformer)
#include "tst_metadatainformer.moc"
