// SPDX-License-Identifier: Apache-2.0
// --state-file: a restart serves the same objects, continues resourceVersions and keeps the
// token and certificates; a corrupt file is refused and left untouched.
#include "tests/support/testhttp.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace opbench::testsupport;

namespace {
const QString kCms = QStringLiteral("/api/v1/namespaces/default/configmaps");
quint64 rvOf(const QJsonObject &o)
{
    return o.value(QLatin1String("metadata")).toObject().value(QLatin1String("resourceVersion")).toString().toULongLong();
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
            stored = http.post(kCms, {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("kept")}}}}).json();
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
        const QJsonObject next = http.post(kCms, {{QStringLiteral("metadata"), QJsonObject{{QStringLiteral("name"), QStringLiteral("after")}}}}).json();
        QVERIFY(rvOf(next) > lastRv);
        QCOMPARE(http.get(QStringLiteral("/apis/example.com/v1alpha1/namespaces/default/myapplications")).code, 200);
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
