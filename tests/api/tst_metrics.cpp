// SPDX-License-Identifier: Apache-2.0
#include "engine/base/metrics.h"

#include <QTest>

using namespace opbench;

class tst_Metrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldExposeCountersGaugesAndHistogramsInTextFormat()
    {
        MetricsRegistry r;
        auto *reqs = r.counter(QStringLiteral("rest_client_requests_total"), QStringLiteral("Number of HTTP requests."),
            {QStringLiteral("code"), QStringLiteral("method"), QStringLiteral("host")});
        reqs->labels({QStringLiteral("200"), QStringLiteral("GET"), QStringLiteral("127.0.0.1:6443")})->inc();
        reqs->labels({QStringLiteral("200"), QStringLiteral("GET"), QStringLiteral("127.0.0.1:6443")})->inc(2);
        r.gauge(QStringLiteral("workqueue_depth"), QStringLiteral("Current depth."), {QStringLiteral("name")})
            ->labels({QStringLiteral("q\"1")})
            ->set(4);
        auto *h = r.histogram(QStringLiteral("x_seconds"), QStringLiteral("Latency."), {}, {0.1, 1});
        h->labels({})->observe(0.05);
        h->labels({})->observe(0.5);
        h->labels({})->observe(5);
        const QString text = QString::fromUtf8(r.exposition());
        QVERIFY(text.contains(QLatin1String("# HELP rest_client_requests_total Number of HTTP requests.\n# TYPE "
                                            "rest_client_requests_total counter\n")));
        QVERIFY(text.contains(
            QLatin1String("rest_client_requests_total{code=\"200\",method=\"GET\",host=\"127.0.0.1:6443\"} 3\n")));
        QVERIFY(text.contains(QLatin1String("workqueue_depth{name=\"q\\\"1\"} 4\n")));
        QVERIFY(text.contains(QLatin1String("x_seconds_bucket{le=\"0.1\"} 1\n")));
        QVERIFY(text.contains(QLatin1String("x_seconds_bucket{le=\"1\"} 2\n")));
        QVERIFY(text.contains(QLatin1String("x_seconds_bucket{le=\"+Inf\"} 3\n")));
        QVERIFY(text.contains(QLatin1String("x_seconds_count 3\n")));
        QVERIFY(text.contains(QLatin1String("x_seconds_sum 5.5")));
        // Families come out sorted by name.
        QVERIFY(text.indexOf(QLatin1String("rest_client")) < text.indexOf(QLatin1String("workqueue_depth")));
        QVERIFY(text.indexOf(QLatin1String("workqueue_depth")) < text.indexOf(QLatin1String("x_seconds")));
    }

    void sameNameReturnsSameFamily()
    {
        MetricsRegistry r;
        auto *a = r.counter(QStringLiteral("a_total"), QStringLiteral("A."));
        QCOMPARE(r.counter(QStringLiteral("a_total"), QStringLiteral("A.")), a);
        QVERIFY(a->find({}) == nullptr);
        a->labels({})->inc();
        QCOMPARE(a->find({})->value(), 1.0);
    }

    void collectorsRunBeforeExposition()
    {
        MetricsRegistry r;
        auto *g = r.gauge(QStringLiteral("process_open_fds"), QStringLiteral("Open fds."));
        int runs = 0;
        r.addCollector([&] { g->labels({})->set(++runs); });
        QVERIFY(r.exposition().contains("process_open_fds 1\n"));
        QVERIFY(r.exposition().contains("process_open_fds 2\n"));
    }

    void bucketHelpersMatchPrometheus()
    {
        const auto e = MetricsRegistry::exponentialBuckets(10e-9, 10, 12);
        QCOMPARE(e.size(), size_t(12));
        QVERIFY(qFuzzyCompare(e.back(), 1000.0));
        const auto l = MetricsRegistry::linearBuckets(0.1, 0.05, 9);
        QVERIFY(qFuzzyCompare(l.back(), 0.5));
    }
};

QTEST_GUILESS_MAIN(tst_Metrics)
#include "tst_metrics.moc"
