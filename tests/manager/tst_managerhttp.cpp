// SPDX-License-Identifier: Apache-2.0
// The manager's /metrics and health-probe endpoints over HTTP.
#include "engine/base/metrics.h"
#include "engine/manager/httpendpoint.h"
#include "engine/manager/manager.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QTest>

using namespace opbench;

class TestManagerHttp : public QObject
{
    Q_OBJECT

private:
    struct Reply
    {
        int code = 0;
        QByteArray body;
        QByteArray contentType;
    };
    Reply fetch(quint16 port, const QString &pathAndQuery)
    {
        QNetworkAccessManager nam;
        QNetworkReply *r
            = nam.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(pathAndQuery))));
        const bool finished = QTest::qWaitFor([r] { return r->isFinished(); }, 15000);
        [&] { QVERIFY2(finished, qPrintable(pathAndQuery + QStringLiteral(": no answer within 15 s"))); }();
        Reply out{r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), r->readAll(),
            r->header(QNetworkRequest::ContentTypeHeader).toByteArray()};
        r->deleteLater();
        return out;
    }

    std::unique_ptr<Manager> m_mgr;
    bool m_ready = true;

private Q_SLOTS:
    void initTestCase()
    {
        ManagerOptions mo;
        mo.restConfig.server = QUrl(QStringLiteral("http://127.0.0.1:9")); // never contacted
        mo.metricsBindAddress = QStringLiteral("127.0.0.1:0");
        mo.healthProbeBindAddress = QStringLiteral("127.0.0.1:0");
        auto mgr = Manager::create(mo);
        QVERIFY(mgr.ok());
        m_mgr = std::move(mgr.value());
        m_mgr->addHealthzCheck(QStringLiteral("ping"), pingCheck);
        m_mgr->addReadyzCheck(QStringLiteral("zeta"), pingCheck);
        m_mgr->addReadyzCheck(QStringLiteral("alpha"), [this]() -> Expected<void> {
            if (m_ready)
                return {};
            return Status::internalError(QStringLiteral("not ready"));
        });
        MetricsRegistry::global()
            .counter(QStringLiteral("opbench_test_total"), QStringLiteral("A test counter."), {QStringLiteral("kind")})
            ->labels({QStringLiteral("a\"b")})
            ->inc(3);
        Expected<void> started = QCoro::waitFor(m_mgr->start());
        QVERIFY2(started.ok(), started.ok() ? "" : qPrintable(started.error().message()));
        QVERIFY(m_mgr->metricsPort() != 0);
        QVERIFY(m_mgr->healthProbePort() != 0);
    }

    // Every slot starts ready, whatever an earlier (possibly failed) slot left behind.
    void init() { m_ready = true; }

    void shouldServeHealthzOk()
    {
        const Reply r = fetch(m_mgr->healthProbePort(), QStringLiteral("/healthz"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.body, QByteArray("ok"));
    }

    void shouldListChecksSortedWhenVerbose()
    {
        const Reply r = fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz?verbose"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.body, QByteArray("[+]alpha ok\n[+]zeta ok\nreadyz check passed\n"));
    }

    void shouldFailWith500AndWithholdReason()
    {
        m_ready = false;
        const Reply r = fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz"));
        QCOMPARE(r.code, 500);
        QCOMPARE(r.body, QByteArray("[-]alpha failed: reason withheld\n[+]zeta ok\nreadyz check failed\n"));
        QCOMPARE(fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz?exclude=alpha")).code, 200);
        QCOMPARE(fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz/alpha")).code, 500);
        QCOMPARE(fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz/zeta")).code, 200);
        QCOMPARE(fetch(m_mgr->healthProbePort(), QStringLiteral("/readyz/nope")).code, 404);
        m_ready = true;
    }

    void shouldServeMetricsInPrometheusTextFormat()
    {
        const Reply r = fetch(m_mgr->metricsPort(), QStringLiteral("/metrics"));
        QCOMPARE(r.code, 200);
        QCOMPARE(r.contentType, QByteArray("text/plain; version=0.0.4; charset=utf-8"));
        for (const char *family : {"process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
                 "process_start_time_seconds", "opbench_test_total"})
            QVERIFY2(r.body.contains(QByteArray("# TYPE ") + family), family);
        // The official parser must accept the whole document. It is optional (python3-prometheus-client):
        // without it this check is skipped, saying so, rather than failed or passed.
        QProcess probe;
        probe.start(
            QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import prometheus_client")});
        if (!probe.waitForFinished(20000) || probe.exitStatus() != QProcess::NormalExit || probe.exitCode() != 0)
            QSKIP("/usr/bin/python3 cannot import prometheus_client (apt-get install python3-prometheus-client): "
                  "the official parser's check did not run");
        QProcess py;
        py.start(QStringLiteral("/usr/bin/python3"),
            {QStringLiteral("-c"),
                QStringLiteral("import sys\nfrom prometheus_client.parser import text_string_to_metric_families as p\n"
                               "fams = {f.name: f for f in p(sys.stdin.read())}\n"
                               "rss = [s.value for s in fams['process_resident_memory_bytes'].samples]\n"
                               "assert rss and rss[0] > 0, rss\n"
                               "print(len(fams))\n")});
        QVERIFY(py.waitForStarted());
        py.write(r.body);
        py.closeWriteChannel();
        QVERIFY(py.waitForFinished(20000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        QVERIFY(py.readAllStandardOutput().trimmed().toInt() >= 5);
    }

    void shouldParseBindAddresses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("disabled");
        QTest::addColumn<QString>("hostText"); // an address, or "any" for Qt's dual-stack QHostAddress::Any
        QTest::addColumn<int>("port");
        QTest::newRow("disabled") << "0" << true << true << "" << 0;
        // controller-runtime's ":8080": every interface, IPv4 and IPv6.
        QTest::newRow("all interfaces") << ":8080" << true << false << "any" << 8080;
        QTest::newRow("loopback") << "127.0.0.1:8081" << true << false << "127.0.0.1" << 8081;
        QTest::newRow("localhost") << "localhost:8082" << true << false << "127.0.0.1" << 8082;
        QTest::newRow("v6") << "[::1]:9" << true << false << "::1" << 9;
        QTest::newRow("no port") << "127.0.0.1" << false << false << "" << 0;
        QTest::newRow("bad host") << "example.com:80" << false << false << "" << 0;
    }
    void shouldParseBindAddresses()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(bool, disabled);
        QFETCH(QString, hostText);
        QFETCH(int, port);
        const QHostAddress host
            = hostText == QLatin1String("any") ? QHostAddress(QHostAddress::Any) : QHostAddress(hostText);
        const auto a = BindAddress::parse(text);
        QCOMPARE(a.ok(), ok);
        if (!ok)
            return;
        QCOMPARE(a->disabled, disabled);
        if (disabled)
            return;
        // Strict comparison: Any (dual stack) is not AnyIPv4, 127.0.0.1 is not ::1.
        QVERIFY2(a->host.isEqual(host, QHostAddress::StrictConversion),
            qPrintable(a->host.toString() + QStringLiteral(" (protocol %1), expected ").arg(int(a->host.protocol()))
                + host.toString() + QStringLiteral(" (protocol %1)").arg(int(host.protocol()))));
        QCOMPARE(int(a->port), port);
    }

    void cleanupTestCase()
    {
        bool done = false;
        connect(m_mgr.get(), &Manager::finished, this, [&] { done = true; });
        m_mgr->stop();
        QTRY_VERIFY_WITH_TIMEOUT(done, 5000);
    }
};

QTEST_GUILESS_MAIN(TestManagerHttp)
#include "tst_managerhttp.moc"
