// SPDX-License-Identifier: Apache-2.0
// RestClient's metadata-only reads (client-go's metadata client) against a local fake server:
// the Accept headers sent for get, list and watch, PartialObjectMetadata replies, full objects
// from a server that ignores the request (reduced to their metadata), and a 406 refusal.
#include "engine/client/partialobjectmetadata.h"
#include "engine/client/restclient.h"
#include "engine/client/watchstream.h"
#include "tests/client/fakeserver.h"
#include "tests/client/testutil.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::test;
using namespace std::chrono_literals;

namespace {

const GroupVersionResource kConfigMaps{QString(), QStringLiteral("v1"), QStringLiteral("configmaps")};
const QByteArray kGetAccept = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
const QByteArray kListAccept = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

const QByteArray kMeta = R"({"name":"demo","namespace":"ns1","resourceVersion":"7","labels":{"a":"b"},)"
                         R"("managedFields":[{"manager":"kubectl"}]})";
const QByteArray kPartial
    = R"({"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":)" + kMeta + "}";
const QByteArray kFull = R"({"kind":"ConfigMap","apiVersion":"v1","metadata":)" + kMeta + R"(,"data":{"k":"v"}})";

RestConfig plainConfig(const FakeServer &server)
{
    RestConfig cfg;
    cfg.server = QUrl(server.url());
    cfg.timeout = 5s;
    return cfg;
}

/// A server that answers list, get and watch with `item` (the list wrapped as `listKind`).
void serve(FakeServer &server, const QByteArray &item, const QByteArray &listKind)
{
    server.setHandler([item, listKind](const FakeRequest &req) {
        if (req.query(QStringLiteral("watch")) == QLatin1String("true")) {
            FakeResponse r;
            r.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
            r.chunks = {R"({"type":"ADDED","object":)" + item + "}\n", R"({"type":"DELETED","object":)" + item + "}\n"};
            return r;
        }
        if (req.path.endsWith("/demo"))
            return FakeResponse::json(200, item);
        return FakeResponse::json(200,
            R"({"kind":")" + listKind + R"(","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[)" + item
                + "]}");
    });
}

QStringList keysOf(const Object &o)
{
    QStringList keys = o.json().keys();
    keys.sort();
    return keys;
}

const QStringList kPartialKeys{QStringLiteral("apiVersion"), QStringLiteral("kind"), QStringLiteral("metadata")};

bool isPartialDemo(const Object &o)
{
    return keysOf(o) == kPartialKeys && o.kind() == QLatin1String("PartialObjectMetadata")
        && o.apiVersion() == QLatin1String("meta.k8s.io/v1") && o.name() == QLatin1String("demo")
        && o.resourceVersion() == QLatin1String("7") && o.labels().value(QStringLiteral("a")) == QLatin1String("b");
}

/// The events of one metadata-only watch, after it finished.
QList<WatchEvent> watchAll(RestClient &client, std::optional<Status> *error)
{
    std::unique_ptr<WatchStream> watch = client.watchMetadata(kConfigMaps, QStringLiteral("ns1"), {});
    QList<WatchEvent> events;
    QObject::connect(watch.get(), &WatchStream::eventReceived, [&events](const WatchEvent &e) { events << e; });
    QSignalSpy finished(watch.get(), &WatchStream::finished);
    watch->start();
    if (!finished.wait(10000))
        return {};
    *error = finished.first().first().value<std::optional<Status>>();
    return events;
}

} // namespace

class tst_MetadataClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldAskForPartialObjectMetadata_data()
    {
        QTest::addColumn<QByteArray>("item");
        QTest::addColumn<QByteArray>("listKind");
        QTest::newRow("server converts") << kPartial << QByteArray("PartialObjectMetadataList");
        // A server without the conversion answers the application/json fallback: full objects,
        // which the client reduces to their metadata.
        QTest::newRow("server ignores it") << kFull << QByteArray("ConfigMapList");
    }
    void shouldAskForPartialObjectMetadata()
    {
        QFETCH(QByteArray, item);
        QFETCH(QByteArray, listKind);
        FakeServer server;
        QVERIFY(server.listen());
        serve(server, item, listKind);
        RestClient client(plainConfig(server));

        auto list = QCoro::waitFor(client.listMetadata(kConfigMaps, QStringLiteral("ns1")));
        QVERIFY_OK(list);
        QCOMPARE(list->resourceVersion, QStringLiteral("9"));
        QCOMPARE(list->items.size(), 1);
        QVERIFY2(isPartialDemo(list->items.first()), list->items.first().toJsonBytes().constData());
        QVERIFY(list->items.first()
                    .json()
                    .value(QLatin1String("metadata"))
                    .toObject()
                    .value(QLatin1String("managedFields"))
                    .isUndefined());

        auto got = QCoro::waitFor(client.getMetadata(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY_OK(got);
        QVERIFY2(isPartialDemo(*got), got->toJsonBytes().constData());

        std::optional<Status> error;
        const QList<WatchEvent> events = watchAll(client, &error);
        QVERIFY(!error);
        QCOMPARE(events.size(), 2);
        QCOMPARE(events.at(0).type, WatchEvent::Type::Added);
        QCOMPARE(events.at(1).type, WatchEvent::Type::Deleted);
        for (const WatchEvent &e : events)
            QVERIFY2(isPartialDemo(e.object), e.object.toJsonBytes().constData());

        QCOMPARE(server.requests.size(), 3);
        QCOMPARE(server.requests.at(0).headers.value("accept"), kListAccept);
        QCOMPARE(server.requests.at(1).headers.value("accept"), kGetAccept);
        QCOMPARE(server.requests.at(2).headers.value("accept"), kGetAccept); // watch: as=PartialObjectMetadata
        QCOMPARE(server.requests.at(2).query(QStringLiteral("watch")), QStringLiteral("true"));
    }

    void shouldKeepAskingForPlainJsonOtherwise()
    {
        FakeServer server;
        QVERIFY(server.listen());
        serve(server, kFull, "ConfigMapList");
        RestClient client(plainConfig(server));
        auto list = QCoro::waitFor(client.list(kConfigMaps, QStringLiteral("ns1")));
        QVERIFY_OK(list);
        QVERIFY(list->items.first().json().contains(QLatin1String("data")));
        std::unique_ptr<WatchStream> watch = client.watch(kConfigMaps, QStringLiteral("ns1"), {});
        QSignalSpy finished(watch.get(), &WatchStream::finished);
        watch->start();
        QVERIFY(finished.wait(10000));
        QCOMPARE(server.requests.size(), 2);
        for (const FakeRequest &r : std::as_const(server.requests))
            QCOMPARE(r.headers.value("accept"), QByteArray("application/json"));
    }

    void shouldSayWhatWasRefusedOnNotAcceptable()
    {
        FakeServer server;
        QVERIFY(server.listen());
        server.setHandler([](const FakeRequest &) {
            return FakeResponse::json(406,
                R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable",)"
                R"("message":"only the following media types are accepted: application/yaml","code":406})");
        });
        RestClient client(plainConfig(server));

        auto list = QCoro::waitFor(client.listMetadata(kConfigMaps, QStringLiteral("ns1")));
        QVERIFY(!list.ok());
        QCOMPARE(list.error().code(), 406);
        QCOMPARE(list.error().reason(), QStringLiteral("NotAcceptable"));
        QVERIFY2(list.error().message().contains(QLatin1String("PartialObjectMetadata")),
            qPrintable(list.error().message()));
        QVERIFY2(list.error().message().contains(QLatin1String("/api/v1/namespaces/ns1/configmaps")),
            qPrintable(list.error().message()));
        QVERIFY(list.error().message().contains(QLatin1String("application/yaml"))); // the server's own words kept

        auto got = QCoro::waitFor(client.getMetadata(kConfigMaps, QStringLiteral("ns1"), QStringLiteral("demo")));
        QVERIFY(!got.ok());
        QCOMPARE(got.error().code(), 406);
        QVERIFY(got.error().message().contains(QLatin1String("PartialObjectMetadata")));

        std::optional<Status> error;
        (void)watchAll(client, &error);
        QVERIFY(error.has_value());
        QCOMPARE(error->code(), 406);
        QVERIFY2(error->message().contains(QLatin1String("PartialObjectMetadata")), qPrintable(error->message()));
        QVERIFY(error->message().contains(QLatin1String("watch")));
    }
};

QTEST_GUILESS_MAIN(tst_MetadataClient)
#include "tst_metadataclient.moc"
