// SPDX-License-Identifier: Apache-2.0
// In-cluster configuration: environment, service-account files, token rotation.
#include "engine/base/clock.h"
#include "engine/client/auth.h"
#include "engine/client/inclusterconfig.h"
#include "engine/testing/fakeclock.h"
#include "tests/client/testutil.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace std::chrono_literals;

namespace {

void writeFile(const QString &path, const QByteArray &content)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
}

QByteArray bearer(const RestConfig &cfg)
{
    Expected<Credentials> c = QCoro::waitFor(cfg.auth->credentials());
    return c ? c->authorization : QByteArray("ERROR");
}

} // namespace

class TestInClusterConfig : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString ca = m_dir.path() + QStringLiteral("/ca.crt");
        const int rc = QProcess::execute(QStringLiteral("openssl"),
            {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                QStringLiteral("-days"), QStringLiteral("1"), QStringLiteral("-subj"), QStringLiteral("/CN=cluster-ca"),
                QStringLiteral("-keyout"), m_dir.path() + QStringLiteral("/ca.key"), QStringLiteral("-out"), ca});
        QCOMPARE(rc, 0);
        writeFile(m_dir.path() + QStringLiteral("/token"), "token-one\n");
        writeFile(m_dir.path() + QStringLiteral("/namespace"), "operators\n");
        qputenv("OPBENCH_SERVICEACCOUNT_DIR", m_dir.path().toUtf8());
    }

    void init()
    {
        qputenv("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        qputenv("KUBERNETES_SERVICE_PORT", "443");
        writeFile(m_dir.path() + QStringLiteral("/token"), "token-one\n");
    }

    void shouldBuildConfigFromServiceAccount()
    {
        Expected<RestConfig> cfg = loadInClusterConfig();
        QVERIFY_OK(cfg);
        QCOMPARE(cfg->server, QUrl(QStringLiteral("https://10.96.0.1:443")));
        QCOMPARE(cfg->namespaceName, QStringLiteral("operators"));
        QCOMPARE(cfg->tls.caCertificates.size(), 1);
        QCOMPARE(cfg->tls.caCertificates.first().subjectInfo(QSslCertificate::CommonName),
            QStringList{QStringLiteral("cluster-ca")});
        QCOMPARE(bearer(*cfg), QByteArray("Bearer token-one"));
    }

    void shouldBracketIpv6Hosts()
    {
        qputenv("KUBERNETES_SERVICE_HOST", "fd00::1");
        Expected<RestConfig> cfg = loadInClusterConfig();
        QVERIFY(cfg.ok());
        QCOMPARE(cfg->server.toString(), QStringLiteral("https://[fd00::1]:443"));
    }

    void shouldNameTheMissingVariable_data()
    {
        QTest::addColumn<QByteArray>("unset");
        QTest::newRow("host") << QByteArray("KUBERNETES_SERVICE_HOST");
        QTest::newRow("port") << QByteArray("KUBERNETES_SERVICE_PORT");
    }

    void shouldNameTheMissingVariable()
    {
        QFETCH(QByteArray, unset);
        qunsetenv(unset.constData());
        Expected<RestConfig> cfg = loadInClusterConfig();
        QVERIFY(!cfg.ok());
        QVERIFY2(cfg.error().message().contains(QString::fromLatin1(unset)), qPrintable(cfg.error().message()));
    }

    void shouldPickUpARotatedTokenAfterThePeriod()
    {
        testing::FakeClock clock;
        Expected<RestConfig> cfg = loadInClusterConfig(&clock);
        QVERIFY(cfg.ok());
        QCOMPARE(bearer(*cfg), QByteArray("Bearer token-one"));
        writeFile(m_dir.path() + QStringLiteral("/token"), "token-two\n");
        clock.advance(59s);
        QCOMPARE(bearer(*cfg), QByteArray("Bearer token-one")); // cached within the minute
        clock.advance(2s);
        QCOMPARE(bearer(*cfg), QByteArray("Bearer token-two"));
        // A 401 forces a re-read at once.
        writeFile(m_dir.path() + QStringLiteral("/token"), "token-three\n");
        QVERIFY(cfg->auth->invalidate());
        QCOMPARE(bearer(*cfg), QByteArray("Bearer token-three"));
    }

    void shouldReportAnUnreadableToken()
    {
        QFile::remove(m_dir.path() + QStringLiteral("/token"));
        Expected<RestConfig> cfg = loadInClusterConfig();
        QVERIFY(!cfg.ok());
        QVERIFY2(
            cfg.error().message().contains(m_dir.path() + QStringLiteral("/token")), qPrintable(cfg.error().message()));
    }
};

QTEST_GUILESS_MAIN(TestInClusterConfig)
#include "tst_inclusterconfig.moc"
