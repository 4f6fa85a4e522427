// SPDX-License-Identifier: Apache-2.0
// What a learner does in the workbench, against the embedded cluster and the real MyApplication
// operator, observed only through the session's queued signals and the real panels: the children
// tree rebuilds a deleted Deployment; the create form built from the CRD keeps replicas at the
// CRD's minimum and shows the server's 422 on the required image field; a breakpoint on a key
// stops there; Step into halts before the first client call and resumes. Every model involved runs under
// QAbstractItemModelTester.
#include "tests/ui/myappfixture.h"
#include "ui/models/childrentreemodel.h"
#include "ui/session/enginesession.h"
#include "ui/session/hostedoperator.h"
#include "ui/widgets/childrenpanel.h"
#include "ui/widgets/createformwidget.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_SessionWorkflows : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        m_session = std::make_unique<EngineSession>(SessionOptions{});
        m_tester = std::make_unique<QAbstractItemModelTester>(
            &m_children, QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(m_session->cacheFeed(), &CacheFeed::batch, &m_children, &ChildrenTreeModel::apply);
        connect(m_session->controller(), &ControllerObserver::controlState, this, [this](const ControlState &s) {
            if (m_state.pendingCalls.isEmpty() && !s.pendingCalls.isEmpty())
                ++m_halts;
            m_state = s;
        });
        connect(m_session->queue(), &QueueObserver::sample, this, [this](const QueueSample &s) {
            m_queue = s;
            ++m_samples;
        });
        connect(m_session->controller(), &ControllerObserver::reconcilesFinished, this,
            [this](const QList<ReconcileTrace> &t) { m_traces.append(t); });
        connect(m_session->cacheFeed(), &CacheFeed::batch, this, [this](const CacheBatch &b) {
            for (const CacheEntry &e : b.entries) {
                const QString id = e.kind + u'/' + e.object.key();
                if (e.op == CacheEntry::Op::Upsert)
                    m_objects.insert(id, e.object);
                else
                    m_objects.remove(id);
            }
        });
        m_session->start();
        QTRY_VERIFY_WITH_TIMEOUT(m_state.available, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(m_traces.size() >= 5, 30000);
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_tester.reset();
    }

    void shouldRebuildADeletedDeploymentInTheChildrenTree()
    {
        // Given the sample app "frontend" with its Deployment attached in the tree
        const QString id = QStringLiteral("Deployment/default/frontend");
        QTRY_VERIFY_WITH_TIMEOUT(m_objects.contains(id), 20000);
        const QString oldUid = m_objects.value(id).uid();
        QTRY_VERIFY_WITH_TIMEOUT(m_children.indexOfUid(oldUid).isValid(), 10000);
        // When the user deletes the Deployment
        m_session->post(
            &WorkbenchEngine::deleteObject, QStringLiteral("Deployment"), QStringLiteral("default/frontend"));
        // Then it leaves the tree and the controller's new Deployment (new uid) appears under the app
        QTRY_VERIFY_WITH_TIMEOUT(!m_children.indexOfUid(oldUid).isValid(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(m_objects.contains(id) && m_objects.value(id).uid() != oldUid, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(m_children.indexOfUid(m_objects.value(id).uid()).isValid(), 10000);
        const QModelIndex now = m_children.indexOfUid(m_objects.value(id).uid());
        QCOMPARE(now.parent().data(ChildrenTreeModel::KeyRole).toString(), QStringLiteral("default/frontend"));
        QCOMPARE(now.parent().data(ChildrenTreeModel::KindRole).toString(), QStringLiteral("MyApplication"));
    }

    void shouldShowTheServer422OnTheRequiredImageField()
    {
        // Given the create form the window builds from the MyApplication CRD, wired the same way
        auto form = workbench::createFormFor(hostedOperator());
        QVERIFY2(form, qPrintable(form ? QString() : form.error().message()));
        ChildrenPanel panel(&m_children, *form);
        connect(&panel, &ChildrenPanel::createRequested, m_session.get(), &EngineSession::createObject);
        connect(m_session->engine(), &WorkbenchEngine::createFailed, &panel, &ChildrenPanel::showCreateError);
        panel.show();
        CreateFormWidget *f = panel.createForm();
        auto *image = qobject_cast<QLineEdit *>(f->editor(QStringLiteral("image")));
        auto *replicas = qobject_cast<QSpinBox *>(f->editor(QStringLiteral("replicas")));
        QVERIFY(image && replicas);
        // The CRD's minimum is the spin box's: 0 replicas cannot be asked for (the lowest value
        // is "(unset)", which leaves the field to the server's default); the form starts at the
        // definition's first sample
        QCOMPARE(replicas->minimum(), 0);
        QCOMPARE(replicas->specialValueText(), QStringLiteral("(unset)"));
        QCOMPARE(replicas->value(), form->sampleSpec.value(QLatin1String("replicas")).toInt(1)); // the sample's
        // When the user leaves the required image empty
        f->nameEdit()->setText(QStringLiteral("blank"));
        image->clear();
        f->createButton()->click();
        // Then the server's 422 is shown, on the image field
        QLabel *error = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((error = visibleError(panel)) != nullptr, 10000);
        QVERIFY2(error->text().contains(QStringLiteral("image")), qPrintable(error->text()));
        QVERIFY(image->styleSheet().contains(QStringLiteral("border")));
        QVERIFY(image->toolTip().contains(QStringLiteral("image")));
        QVERIFY(!f->nameEdit()->styleSheet().contains(QStringLiteral("border")));
        QVERIFY(!m_objects.contains(QStringLiteral("MyApplication/default/blank")));
        // And with an image the same form creates the app, which the operator reconciles
        image->setText(QStringLiteral("nginx:1.25"));
        replicas->setValue(2);
        f->createButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(tracesFor(QStringLiteral("default/blank")) > 0, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_objects.value(QStringLiteral("MyApplication/default/blank"))
                                      .value({QLatin1String("spec"), QLatin1String("replicas")})
                                      .toInt(),
            2, 10000);
        QVERIFY(visibleError(panel) == nullptr);
    }

    void shouldStopAtABreakpointOnAKey()
    {
        // Given a breakpoint on a key that has no object yet, while the controller runs
        QVERIFY(!m_state.paused);
        const QString key = QStringLiteral("default/bp-app");
        m_session->post(&ControllerObserver::toggleBreakpoint, key);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.breakpoints.contains(key), 5000);
        // When the app is created (its key is queued)
        m_session->createObject(testing::myApp(QStringLiteral("bp-app"), QStringLiteral("nginx:1.25"), 1));
        // Then the controller pauses on that key before reconciling it
        QTRY_VERIFY_WITH_TIMEOUT(m_state.paused, 10000);
        QVERIFY2(m_state.lastBreak.contains(key), qPrintable(m_state.lastBreak));
        // and, while three more queue samples go by, the key waits unreconciled
        QTRY_VERIFY_WITH_TIMEOUT(queued(key), 10000);
        for (int i = 0; i < 3; ++i) {
            waitForSamples(1);
            QVERIFY2(queued(key), qPrintable(key));
        }
        QCOMPARE(tracesFor(key), 0);
        m_session->post(&ControllerObserver::toggleBreakpoint, key);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.breakpoints.contains(key), 5000);
    }

    void shouldHaltStepIntoBeforeTheFirstClientCallAndResume()
    {
        // Given the controller paused with a key of its own queued and never reconciled
        m_session->post(&ControllerObserver::pause);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.paused, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.activeWorkers, 0, 10000);
        const QString key = QStringLiteral("default/into-app");
        m_session->createObject(testing::myApp(QStringLiteral("into-app"), QStringLiteral("nginx:1.25"), 1));
        QTRY_VERIFY_WITH_TIMEOUT(queued(key), 10000);
        const int halts = m_halts;
        // When the user steps into that key
        m_session->post(&ControllerObserver::stepInto, key);
        // Then the reconcile halts before its first client call, which is shown, and does not finish
        QTRY_VERIFY_WITH_TIMEOUT(m_halts == halts + 1, 10000);
        QVERIFY2(m_state.pendingCalls.first().contains(QStringLiteral("into-app")),
            qPrintable(m_state.pendingCalls.first()));
        // (three more queue samples show it still in a worker's hands, halted)
        for (int i = 0; i < 3; ++i) {
            waitForSamples(1);
            QCOMPARE(m_queue.processing, 1);
            QCOMPARE(m_halts, halts + 1);
        }
        QCOMPARE(tracesFor(key), 0);
        QVERIFY(!m_state.pendingCalls.isEmpty());
        // When the user steps over that call, the reconcile halts again before the next one
        m_session->post(&ControllerObserver::continueCall);
        QTRY_VERIFY_WITH_TIMEOUT(m_halts == halts + 2, 10000);
        QCOMPARE(tracesFor(key), 0);
        // And Continue runs it to the end: one trace, nothing pending, still paused
        m_session->post(&ControllerObserver::continueToEnd);
        QTRY_COMPARE_WITH_TIMEOUT(tracesFor(key), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.pendingCalls.isEmpty(), 5000);
        QVERIFY(m_state.paused);
        const ReconcileTrace trace = lastTraceFor(key);
        QVERIFY(!trace.calls.isEmpty());
        m_session->post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.paused, 5000);
    }

    // Every slot starts with the controller running, whatever the previous one left.
    void cleanup()
    {
        m_session->post(&ControllerObserver::resume);
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.paused, 5000);
    }

private:
    static QLabel *visibleError(const ChildrenPanel &panel)
    {
        auto *l = panel.findChild<QLabel *>(QStringLiteral("createError"));
        return l && l->isVisible() && !l->text().isEmpty() ? l : nullptr;
    }

    int tracesFor(const QString &key) const
    {
        return int(std::count_if(
            m_traces.begin(), m_traces.end(), [&key](const ReconcileTrace &t) { return t.request.toString() == key; }));
    }

    ReconcileTrace lastTraceFor(const QString &key) const
    {
        for (auto it = m_traces.crbegin(); it != m_traces.crend(); ++it) {
            if (it->request.toString() == key)
                return *it;
        }
        return {};
    }

    /// Waits for `n` more queue samples (every 500 ms on the engine thread).
    void waitForSamples(int n)
    {
        const int seen = m_samples;
        QTRY_VERIFY_WITH_TIMEOUT(m_samples >= seen + n, 10000);
    }

    bool queued(const QString &key) const
    {
        for (const QueueRow &r : m_queue.rows) {
            if (r.key == key && r.state != u"processing")
                return true;
        }
        return false;
    }

    std::unique_ptr<EngineSession> m_session;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    ChildrenTreeModel m_children;
    ControlState m_state;
    int m_halts = 0; ///< times a reconcile halted before a call (pendingCalls became non-empty)
    QueueSample m_queue;
    int m_samples = 0;
    QList<ReconcileTrace> m_traces;
    QHash<QString, Object> m_objects;
};

QTEST_MAIN(tst_SessionWorkflows)
#include "tst_sessionworkflows.moc"
