// SPDX-License-Identifier: Apache-2.0
// LIST: label and field selectors, paging with continue tokens (first page's RV, 410 when
// expired), resourceVersion semantics, items never null.
#include "tests/support/testhttp.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");

QStringList names(const QJsonObject &list)
{
    QStringList out;
    for (const QJsonValue &v : list.value(QLatin1String("items")).toArray())
        out << v.toObject().value(QLatin1String("metadata")).toObject().value(QLatin1String("name")).toString();
    return out;
}
QString listRv(const QJsonObject &list)
{
    return list.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString();
}
QString continueOf(const QJsonObject &list)
{
    return list.value(QLatin1String("metadata")).toObject().value(QLatin1String("continue")).toString();
}
} // namespace

class TestApiServerList : public QObject
{
    Q_OBJECT
private:
    static opbench::apiserver::ApiServerOptions options()
    {
        auto o = TestApiServer::plainOptions();
        o.freshnessWaitMs = 300; // future resourceVersions give up quickly
        return o;
    }
    TestApiServer m_api{options()};
    std::unique_ptr<TestHttp> m_http;

    void create(const QString &name, const QJsonObject &labels)
    {
        const QJsonObject cm{{QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("labels"), labels}}}};
        QCOMPARE(m_http->post(kCms, cm).code, 201);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_api.start(), qPrintable(m_api.errorString()));
        m_http = std::make_unique<TestHttp>(m_api);
        create(QStringLiteral("a"),
            {{QStringLiteral("app"), QStringLiteral("web")}, {QStringLiteral("tier"), QStringLiteral("front")}});
        create(QStringLiteral("b"), {{QStringLiteral("app"), QStringLiteral("web")}});
        create(QStringLiteral("c"), {{QStringLiteral("app"), QStringLiteral("db")}});
        create(QStringLiteral("d"), {});
        create(QStringLiteral("e"), {{QStringLiteral("app"), QStringLiteral("cache")}});
    }

    void shouldReturnEmptyItemsArray()
    {
        const QJsonObject l = m_http->get(QStringLiteral("/api/v1/namespaces/kube-public/configmaps")).json();
        QVERIFY(l.value(QLatin1String("items")).isArray());
        QCOMPARE(l.value(QLatin1String("kind")).toString(), QStringLiteral("ConfigMapList"));
    }

    void shouldFilterByLabels_data()
    {
        QTest::addColumn<QString>("selector");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("equals") << "app=web" << QStringList{"a", "b"};
        QTest::newRow("not equals includes missing") << "app!=web" << QStringList{"c", "d", "e"};
        QTest::newRow("in with kubectl spaces") << "app+in+%28web%2C+db%29" << QStringList{"a", "b", "c"};
        QTest::newRow("notin") << "app%20notin%20(web)" << QStringList{"c", "d", "e"};
        QTest::newRow("exists") << "tier" << QStringList{"a"};
        QTest::newRow("not exists") << "!app" << QStringList{"d"};
        QTest::newRow("and") << "app=web,!tier" << QStringList{"b"};
    }
    void shouldFilterByLabels()
    {
        QFETCH(QString, selector);
        QFETCH(QStringList, expected);
        const HttpReply r = m_http->get(kCms + QStringLiteral("?labelSelector=") + selector);
        QCOMPARE(r.code, 200);
        QCOMPARE(names(r.json()), expected);
    }

    void shouldRejectBadSelectors()
    {
        QCOMPARE(m_http->get(kCms + QStringLiteral("?labelSelector=app%20in%20(")).code, 400);
        const HttpReply r = m_http->get(kCms + QStringLiteral("?fieldSelector=spec.foo%3Dx"));
        QCOMPARE(r.code, 400);
        QCOMPARE(
            r.json().value(QLatin1String("message")).toString(), QStringLiteral("field label not supported: spec.foo"));
    }

    void shouldFilterByFields()
    {
        QCOMPARE(
            names(m_http->get(kCms + QStringLiteral("?fieldSelector=metadata.name%3Dc")).json()), QStringList{"c"});
        QCOMPARE(
            names(m_http->get(kCms + QStringLiteral("?fieldSelector=metadata.name!%3Dc,metadata.namespace%3Ddefault"))
                      .json()),
            (QStringList{"a", "b", "d", "e"}));
        QCOMPARE(names(m_http->get(QStringLiteral("/api/v1/configmaps?fieldSelector=metadata.namespace%3Dkube-system"))
                           .json()),
            QStringList{});
        QCOMPARE(
            m_http->get(QStringLiteral("/api/v1/namespaces/default/pods?fieldSelector=status.phase%3DRunning")).code,
            200);
    }

    void shouldPageWithTheFirstPagesResourceVersion()
    {
        QJsonObject page = m_http->get(kCms + QStringLiteral("?limit=2")).json();
        const QString rv = listRv(page);
        QStringList all = names(page);
        QCOMPARE(all.size(), 2);
        QCOMPARE(
            page.value(QLatin1String("metadata")).toObject().value(QLatin1String("remainingItemCount")).toInt(), 3);
        create(QStringLiteral("f"), {}); // a write between pages
        while (!continueOf(page).isEmpty()) {
            page = m_http->get(kCms + QStringLiteral("?limit=2&continue=") + continueOf(page)).json();
            QCOMPARE(listRv(page), rv);
            all << names(page);
        }
        QCOMPARE(all.mid(0, 5), (QStringList{"a", "b", "c", "d", "e"}));
    }

    void shouldExpireContinueTokensAfterCompaction()
    {
        const QJsonObject page = m_http->get(kCms + QStringLiteral("?limit=1")).json();
        QVERIFY(!continueOf(page).isEmpty());
        create(QStringLiteral("g"), {});
        m_api.runOnServerThread([](opbench::apiserver::ApiServer &s) { s.compactHistory(); });
        const HttpReply r = m_http->get(kCms + QStringLiteral("?limit=1&continue=") + continueOf(page));
        QCOMPARE(r.code, 410);
        QCOMPARE(r.json().value(QLatin1String("reason")).toString(), QStringLiteral("Expired"));
        QVERIFY(!r.json()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("continue"))
                     .toString()
                     .isEmpty());
    }

    void shouldHonourResourceVersionSemantics()
    {
        const QString rv = listRv(m_http->get(kCms).json());
        QCOMPARE(m_http->get(kCms + QStringLiteral("?resourceVersion=0")).code, 200);
        QCOMPARE(m_http
                     ->get(kCms + QStringLiteral("?resourceVersion=") + rv
                         + QStringLiteral("&resourceVersionMatch=NotOlderThan"))
                     .code,
            200);
        QCOMPARE(m_http->get(kCms + QStringLiteral("?resourceVersion=1&resourceVersionMatch=Exact")).code, 410);
    }

    void shouldServeResourceVersionZeroUnpaginated()
    {
        // kube-apiserver serves RV=0 from its watch cache and ignores limit there; client-go's
        // reflector lists with ?limit=500&resourceVersion=0 and must not be pushed into paging.
        const HttpReply all = m_http->get(kCms);
        const HttpReply r = m_http->get(kCms + QStringLiteral("?limit=2&resourceVersion=0"));
        QCOMPARE(r.code, 200);
        QCOMPARE(names(r.json()), names(all.json()));
        QVERIFY(names(r.json()).size() > 2);
        QVERIFY(continueOf(r.json()).isEmpty());
        QVERIFY(!r.json().value(QLatin1String("metadata")).toObject().contains(QLatin1String("remainingItemCount")));
        QCOMPARE(
            names(m_http->get(kCms + QStringLiteral("?limit=2&resourceVersion=0&resourceVersionMatch=NotOlderThan"))
                      .json()),
            names(all.json()));
        QCOMPARE(names(m_http->get(kCms + QStringLiteral("?limit=2")).json()).size(), 2); // RV "" still pages
    }

    void shouldAnswerTooLargeResourceVersionAfterWaiting_data()
    {
        QTest::addColumn<QString>("match");
        QTest::newRow("unset") << QString();
        QTest::newRow("NotOlderThan") << QStringLiteral("&resourceVersionMatch=NotOlderThan");
    }
    void shouldAnswerTooLargeResourceVersionAfterWaiting()
    {
        QFETCH(QString, match);
        const HttpReply r = m_http->get(kCms + QStringLiteral("?resourceVersion=999999999") + match);
        QCOMPARE(r.code, 504);
        const QJsonObject st = r.json();
        QCOMPARE(st.value(QLatin1String("reason")).toString(), QStringLiteral("Timeout"));
        QVERIFY(st.value(QLatin1String("message"))
                    .toString()
                    .startsWith(QLatin1String("Timeout: Too large resource version: 999999999, current: ")));
        const QJsonObject details = st.value(QLatin1String("details")).toObject();
        QCOMPARE(details.value(QLatin1String("retryAfterSeconds")).toInt(), 1);
        QCOMPARE(details.value(QLatin1String("causes"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QLatin1String("reason"))
                     .toString(),
            QStringLiteral("ResourceVersionTooLarge"));
    }

    void shouldServeAListOnceTheFutureRvArrives()
    {
        auto o = TestApiServer::plainOptions();
        o.freshnessWaitMs = 30000; // long: the write below must land inside the wait
        TestApiServer api(o);
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        TestHttp http(api);
        const quint64 future = listRv(http.get(kCms).json()).toULongLong() + 1;
        const auto requests = [&api] {
            quint64 n = 0;
            api.runOnServerThread([&n](opbench::apiserver::ApiServer &s) { n = s.requestCount(); });
            return n;
        };
        const quint64 before = requests();
        QNetworkAccessManager nam;
        std::unique_ptr<QNetworkReply> pending(nam.get(
            api.request(kCms + QStringLiteral("?resourceVersion=%1&resourceVersionMatch=NotOlderThan").arg(future))));
        // The request has reached the server (which then waits for the resourceVersion)
        QTRY_VERIFY_WITH_TIMEOUT(requests() > before, 10000);
        QVERIFY(!pending->isFinished());
        QCOMPARE(http.post(kCms,
                         QJsonObject{{QStringLiteral("metadata"),
                             QJsonObject{{QStringLiteral("name"), QStringLiteral("arrives")}}}})
                     .code,
            201);
        QTRY_VERIFY_WITH_TIMEOUT(pending->isFinished(), 10000);
        QCOMPARE(pending->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
        const QJsonObject list = QJsonDocument::fromJson(pending->readAll()).object();
        QVERIFY(listRv(list).toULongLong() >= future);
        QVERIFY(names(list).contains(QStringLiteral("arrives")));
    }
};

QTEST_GUILESS_MAIN(TestApiServerList)
#include "tst_apiserver_list.moc"
