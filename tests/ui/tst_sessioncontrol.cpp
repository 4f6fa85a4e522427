// SPDX-License-Identifier: Apache-2.0
// Stepping through the bridge against the embedded cluster and the real MyApplication operator:
// Pause stops reconciles while the cache still updates; Step processes exactly one queued key;
// Run drains the queue again. Everything observed only through the session's queued signals.
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
        connect(m_session->queue(), &QueueObserver::sample, this, [this](const QueueSample &s) { m_queue = s; });
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

    void cleanupTestCase() { m_session.reset(); }

    void shouldStopReconcilingWhenPausedWhileTheCacheUpdates()
    {
        // Given a paused controller
        m_session->post(&ControllerObserver::pause);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.paused, 5000);
        QTest::qWait(500); // let reconciles in flight finish
        const qsizetype before = m_traces.size();
        // When an app is created
        m_session->createApplication(QStringLiteral("paused-app"), QStringLiteral("nginx:1.25"), 1);
        // Then the cache sees it and the queue holds its key, but nothing reconciles it
        QTRY_VERIFY_WITH_TIMEOUT(m_cacheKeys.contains(QStringLiteral("MyApplication/default/paused-app")), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(queued(QStringLiteral("default/paused-app")), 10000);
        QTest::qWait(1000);
        QCOMPARE(m_traces.size(), before);
    }

    void shouldStepExactlyOneKey()
    {
        QVERIFY(m_state.paused);
        const qsizetype before = m_traces.size();
        const int depth = m_queue.depth;
        QVERIFY(depth >= 1);
        // When the user steps once
        m_session->post(&ControllerObserver::step, QString());
        // Then exactly one reconcile runs and the controller stays paused
        QTRY_COMPARE_WITH_TIMEOUT(m_traces.size(), before + 1, 10000);
        QTest::qWait(1000);
        QCOMPARE(m_traces.size(), before + 1);
        QVERIFY(m_state.paused);
    }

    void shouldDrainTheQueueWhenRunAgain()
    {
        m_session->post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.paused, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_queue.depth, 0, 15000);
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

    std::unique_ptr<EngineSession> m_session;
    ControlState m_state;
    QueueSample m_queue;
    QList<ReconcileTrace> m_traces;
    QSet<QString> m_cacheKeys;
};

QTEST_GUILESS_MAIN(tst_SessionControl)
#include "tst_sessioncontrol.moc"
