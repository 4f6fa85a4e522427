// SPDX-License-Identifier: Apache-2.0
// One engine under the workbench: the window's Cache panel is the Manager's own informer cache,
// the one the reconciler reads. Proven from outside: the embedded server's audit log shows one
// LIST and one WATCH per shown kind (a second cache would double them), and an object the panel
// shows at resourceVersion X is read by the next reconcile at exactly X.
#include "tests/ui/myappfixture.h"
#include "ui/session/enginesession.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_OneEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        SessionOptions options;
        options.auditLog = m_dir.filePath(QStringLiteral("audit.jsonl"));
        m_session = std::make_unique<EngineSession>(options);
        connect(m_session->controller(), &ControllerObserver::controlState, this,
            [this](const ControlState &s) { m_state = s; });
        connect(m_session->controller(), &ControllerObserver::reconcilesFinished, this,
            [this](const QList<ReconcileTrace> &t) { m_traces.append(t); });
        connect(m_session->cacheFeed(), &CacheFeed::batch, this, [this](const CacheBatch &b) {
            for (const CacheEntry &e : b.entries)
                m_shown.insert(e.kind + u'/' + e.object.key(), e.object.resourceVersion());
            m_informers = b.informers;
        });
        m_session->start();
        QTRY_VERIFY_WITH_TIMEOUT(m_state.available, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(m_traces.size() >= 5, 30000); // the five samples
        QTRY_VERIFY_WITH_TIMEOUT(allSynced(), 30000);
    }

    void cleanupTestCase() { m_session.reset(); }

    void shouldWatchEachShownKindOnce()
    {
        // Given the workbench running the operator with its four shown kinds synced
        QCOMPARE(m_informers.size(), 4);
        // When the server's audit log is read
        const QHash<QString, int> watches = countVerb(QStringLiteral("watch"));
        const QHash<QString, int> lists = countVerb(QStringLiteral("list"));
        // Then each kind was listed and watched exactly once, and nothing else was watched
        for (const QString &resource : {QStringLiteral("myapplications"), QStringLiteral("deployments"),
                 QStringLiteral("replicasets"), QStringLiteral("pods")}) {
            QVERIFY2(
                watches.value(resource) == 1, qPrintable(resource + u' ' + QString::number(watches.value(resource))));
            QVERIFY2(lists.value(resource) == 1, qPrintable(resource + u' ' + QString::number(lists.value(resource))));
        }
        int total = 0;
        for (int n : watches)
            total += n;
        QCOMPARE(total, 4);
    }

    void shouldReconcileTheResourceVersionThePanelShows()
    {
        // Given a paused controller and a new app the Cache panel shows at resourceVersion X
        m_session->post(&ControllerObserver::pause);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.paused, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.activeWorkers, 0, 10000);
        m_session->createObject(testing::myApp(QStringLiteral("same-rv"), QStringLiteral("nginx:1.25"), 1));
        const QString key = QStringLiteral("MyApplication/default/same-rv");
        QTRY_VERIFY_WITH_TIMEOUT(m_shown.contains(key), 10000);
        const QString shownRv = m_shown.value(key);
        QVERIFY(!shownRv.isEmpty());
        // When the user steps its reconcile
        const qsizetype before = m_traces.size();
        m_session->post(&ControllerObserver::step, QStringLiteral("default/same-rv"));
        QTRY_VERIFY_WITH_TIMEOUT(m_traces.size() > before, 10000);
        // Then the reconcile read that app from the cache at exactly the version shown
        const ReconcileTrace trace = m_traces.at(before);
        QCOMPARE(trace.request.toString(), QStringLiteral("default/same-rv"));
        QVERIFY(!trace.calls.isEmpty());
        const TraceCall &read = trace.calls.first();
        QCOMPARE(read.verb, QStringLiteral("get"));
        QCOMPARE(read.gvk.kind, QStringLiteral("MyApplication"));
        QVERIFY(read.fromCache);
        QCOMPARE(read.resourceVersion, shownRv);
        m_session->post(&ControllerObserver::resume);
    }

private:
    bool allSynced() const
    {
        if (m_informers.size() != 4)
            return false;
        for (const InformerState &s : m_informers)
            if (!s.synced)
                return false;
        return true;
    }

    QHash<QString, int> countVerb(const QString &verb) const
    {
        QHash<QString, int> out;
        QFile f(m_dir.filePath(QStringLiteral("audit.jsonl")));
        if (!f.open(QIODevice::ReadOnly))
            return out;
        while (!f.atEnd()) {
            const QJsonObject line = QJsonDocument::fromJson(f.readLine()).object();
            if (line.value(QLatin1String("verb")).toString() == verb)
                ++out[line.value(QLatin1String("resource")).toString()];
        }
        return out;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<EngineSession> m_session;
    ControlState m_state;
    QList<ReconcileTrace> m_traces;
    QHash<QString, QString> m_shown; // kind/ns/name -> resourceVersion last shown
    QList<InformerState> m_informers;
};

QTEST_GUILESS_MAIN(tst_OneEngine)
#include "tst_oneengine.moc"
