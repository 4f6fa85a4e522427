// SPDX-License-Identifier: Apache-2.0
// --state-file: a restart serves the same objects, continues resourceVersions and keeps the
// token and certificates; a corrupt file is refused and left untouched.
#include "tests/support/testhttp.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace opbench::testing;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");
quint64 rvOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata"))
        .toObject()
        .value(QLatin1String("resourceVersion"))
        .toString()
        .toULongLong();
}
} // namespace

class TestApiServerState : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    opbench::apiserver::ApiServerOptions options(const QString &file) const
    {
        auto o = TestApiServer::httpsOptions();
        o.tls.reset(); // certificates come from the state file after the first start
        o.token.clear();
        o.stateFile = m_dir.filePath(file);
        return o;
    }

private Q_SLOTS:
    void shouldSurviveARestart()
    {
        QString token;
        QByteArray ca;
        quint64 lastRv = 0;
        QJsonObject stored;
        {
            TestApiServer api(options(QStringLiteral("state.json")));
            QVERIFY2(api.start(), qPrintable(api.errorString()));
            TestHttp http(api);
            stored
                = http.post(kCms,
                          {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("kept")}}}})
                      .json();
            lastRv = rvOf(stored);
            token = api.token();
            ca = api.caPem();
        } // stop flushes the state file
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("state.json"))));
        QVERIFY((QFile::permissions(m_dir.filePath(QStringLiteral("state.json"))) & QFileDevice::ReadOther) == 0);
        TestApiServer api(options(QStringLiteral("state.json")));
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        QCOMPARE(api.token(), token);
        QCOMPARE(api.caPem(), ca); // the old kubeconfig still works
        TestHttp http(api);
        QCOMPARE(http.get(kCms + QStringLiteral("/kept")).json(), stored);
        const QJsonObject next
            = http.post(kCms,
                      {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("after")}}}})
                  .json();
        QVERIFY(rvOf(next) > lastRv);
        QCOMPARE(http.get(QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications")).code, 200);
    }

    void shouldReadCustomResourcesSavedUnderTheirVersion()
    {
        // Older servers saved custom resources under {group, version, plural}; they are one
        // version-less bucket now, and a state file from before still loads them.
        const QString apps = QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications");
        {
            TestApiServer api(options(QStringLiteral("old.json")));
            QVERIFY2(api.start(), qPrintable(api.errorString()));
            TestHttp http(api);
            QCOMPARE(
                http.post(apps,
                        {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("legacy")}}},
                            {QStringLiteral("spec"),
                                QJsonObject{{QStringLiteral("image"), QStringLiteral("nginx")},
                                    {QStringLiteral("replicas"), 1}}}})
                    .code,
                201);
        }
        QFile f(m_dir.filePath(QStringLiteral("old.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject state = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonObject store = state.value(QLatin1String("store")).toObject();
        QJsonArray resources = store.value(QLatin1String("resources")).toArray();
        bool rewritten = false;
        for (qsizetype i = 0; i < resources.size(); ++i) {
            QJsonObject r = resources.at(i).toObject();
            if (r.value(QLatin1String("resource")).toString() != QLatin1String("myapplications"))
                continue;
            QCOMPARE(r.value(QLatin1String("version")).toString(), QString()); // saved version-less now
            r.insert(QStringLiteral("version"), QStringLiteral("v1alpha1"));   // as older servers did
            resources[i] = r;
            rewritten = true;
        }
        QVERIFY(rewritten);
        store.insert(QStringLiteral("resources"), resources);
        state.insert(QStringLiteral("store"), store);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(QJsonDocument(state).toJson());
        f.close();
        TestApiServer api(options(QStringLiteral("old.json")));
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        TestHttp http(api);
        QCOMPARE(http.get(apps + QStringLiteral("/legacy")).code, 200);
        QCOMPARE(http.get(apps).json().value(QLatin1String("items")).toArray().size(), 1);
    }

    void shouldRefuseACorruptFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("corrupt.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"kind\":\"OpbenchApiServerState\",\"tok");
        f.close();
        TestApiServer api(options(QStringLiteral("corrupt.json")));
        QVERIFY(!api.start());
        QVERIFY2(api.errorString().contains(QLatin1String("is corrupt")), qPrintable(api.errorString()));
        QVERIFY(api.errorString().contains(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("{\"kind\":\"OpbenchApiServerState\",\"tok"));
    }
};

QTEST_GUILESS_MAIN(TestApiServerState)
#include "tst_apiserver_state.moc"
