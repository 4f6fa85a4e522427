// SPDX-License-Identifier: Apache-2.0
// Stepping through the bridge against the embedded cluster and the real MyApplication operator:
// Pause stops reconciles while the cache still updates; Step processes exactly one queued key;
// Run drains the queue again. Everything observed only through the session's queued signals.
// Each slot sets up what it needs (a paused controller, a queued key of its own) and leaves the
// controller running, so every slot runs alone too (tst_sessioncontrol <slot>).
#include "tests/ui/myappfixture.h"
#include "ui/session/enginesession.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_SessionControl : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_session = std::make_unique<EngineSession>(SessionOptions{});
        connect(m_session->controller(), &ControllerObserver::controlState, this,
            [this](const ControlState &s) { m_state = s; });
        connect(m_session->queue(), &QueueObserver::sample, this, [this](const QueueSample &s) {
            m_queue = s;
            ++m_samples;
        });
        connect(m_session->controller(), &ControllerObserver::reconcilesFinished, this,
            [this](const QList<ReconcileTrace> &t) { m_traces.append(t); });
        connect(m_session->cacheFeed(), &CacheFeed::batch, this, [this](const CacheBatch &b) {
            for (const CacheEntry &e : b.entries)
                m_cacheKeys.insert(e.kind + u'/' + e.object.key());
        });
        m_session->start();
        QTRY_VERIFY_WITH_TIMEOUT(m_state.available, 30000);
        // The operator reconciles the five samples
        QTRY_VERIFY_WITH_TIMEOUT(m_traces.size() >= 5, 30000);
    }

    void cleanup()
    {
        m_session->post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.paused, 5000);
    }

    void cleanupTestCase() { m_session.reset(); }

    void shouldStopReconcilingWhenPausedWhileTheCacheUpdates()
    {
        // Given a paused controller with no reconcile in flight
        pauseAndSettle();
        const qsizetype before = m_traces.size();
        // When an app is created
        m_session->createObject(testing::myApp(QStringLiteral("paused-app"), QStringLiteral("nginx:1.25"), 1));
        // Then the cache sees it and the queue holds its key, but nothing reconciles it
        QTRY_VERIFY_WITH_TIMEOUT(m_cacheKeys.contains(QStringLiteral("MyApplication/default/paused-app")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(queued(QStringLiteral("default/paused-app")), 10000);
        verifyStaysQueued(QStringLiteral("default/paused-app"));
        QCOMPARE(m_traces.size(), before);
    }

    void shouldStepExactlyOneKey()
    {
        // Given a paused controller with two keys of its own queued
        pauseAndSettle();
        m_session->createObject(testing::myApp(QStringLiteral("step-one"), QStringLiteral("nginx:1.25"), 1));
        m_session->createObject(testing::myApp(QStringLiteral("step-two"), QStringLiteral("nginx:1.25"), 1));
        QTRY_VERIFY_WITH_TIMEOUT(queued(QStringLiteral("default/step-one")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(queued(QStringLiteral("default/step-two")), 10000);
        const qsizetype before = m_traces.size();
        // When the user steps once
        m_session->post(&ControllerObserver::step, QStringLiteral("default/step-one"));
        // Then exactly one reconcile runs and the controller stays paused
        QTRY_COMPARE_WITH_TIMEOUT(m_traces.size(), before + 1, 10000);
        QCOMPARE(m_traces.last().request.toString(), QStringLiteral("default/step-one"));
        QTRY_COMPARE_WITH_TIMEOUT(m_state.activeWorkers, 0, 10000);
        verifyStaysQueued(QStringLiteral("default/step-two"));
        QCOMPARE(m_traces.size(), before + 1);
        QVERIFY(m_state.paused);
    }

    void shouldDrainTheQueueWhenRunAgain()
    {
        // Given a paused controller with a key of its own queued
        pauseAndSettle();
        m_session->createObject(testing::myApp(QStringLiteral("drain-app"), QStringLiteral("nginx:1.25"), 1));
        QTRY_VERIFY_WITH_TIMEOUT(queued(QStringLiteral("default/drain-app")), 10000);
        // When the user runs again, the queue drains
        m_session->post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.paused, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_queue.depth, 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(reconciled(QStringLiteral("default/drain-app")), 10000);
    }

private:
    bool queued(const QString &key) const
    {
        for (const QueueRow &r : m_queue.rows) {
            if (r.key == key && (r.state == u"queued" || r.state == u"waiting"))
                return true;
        }
        return false;
    }
    bool reconciled(const QString &key) const
    {
        for (const ReconcileTrace &t : m_traces)
            if (t.request.toString() == key)
                return true;
        return false;
    }
    /// Pauses and waits until no reconcile is in flight, and until two queue samples (500 ms
    /// apart, on the engine thread) followed: the trace batch of the last reconcile (flushed
    /// every 100 ms on that thread) has then reached this thread too.
    void pauseAndSettle()
    {
        m_session->post(&ControllerObserver::pause);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.paused, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.activeWorkers, 0, 10000);
        waitForSamples(2);
    }
    void waitForSamples(int n)
    {
        const int seen = m_samples;
        QTRY_VERIFY_WITH_TIMEOUT(m_samples >= seen + n, 10000);
    }
    /// The positive signal behind "nothing reconciled it": three more queue samples still show
    /// `key` queued with no worker active — a running controller takes a queued key at once.
    void verifyStaysQueued(const QString &key)
    {
        for (int i = 0; i < 3; ++i) {
            waitForSamples(1);
            QVERIFY2(queued(key), qPrintable(key));
            QCOMPARE(m_queue.processing, 0);
        }
    }

    std::unique_ptr<EngineSession> m_session;
    ControlState m_state;
    QueueSample m_queue;
    int m_samples = 0;
    QList<ReconcileTrace> m_traces;
    QSet<QString> m_cacheKeys;
};

QTEST_GUILESS_MAIN(tst_SessionControl)
#include "tst_sessioncontrol.moc"
