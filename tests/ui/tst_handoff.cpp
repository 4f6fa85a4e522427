// SPDX-License-Identifier: Apache-2.0
// Leadership hand-off against the embedded cluster and a real opbench-operator process: the
// workbench leads; "Hand off" starts the process in-cluster style and the Lease moves to it;
// "Take back" stops it (exit 0) and the Lease returns; a process that dies is reported with how.
// The Lease is also read independently of the session, and a LeadershipPanel follows the states.
#include "ui/mainwindow.h"
#include "ui/session/enginesession.h"
#include "ui/widgets/leadershippanel.h"

#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QAction>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

#include <csignal>

using namespace opbench;
using namespace opbench::ui;

class tst_HandOff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the hand-off's recordings go to a test folder
        QVERIFY2(
            QFile::exists(QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator")), "build opbench-operator first");
        SessionOptions o;
        o.operatorProgram = QStringLiteral(OPBENCH_BINARY_DIR "/app/opbench-operator");
        o.podReadyDelayMs = 200;
        m_session = std::make_unique<EngineSession>(o);
        connect(m_session->leadership(), &Leadership::leadershipState, this, [this](const LeadershipState &s) {
            m_state = s;
            m_log += s.newLogLines;
            m_panel.apply(s);
        });
        connect(m_session.get(), &EngineSession::failed, this,
            [](const QString &m) { qWarning("session failed: %s", qPrintable(m)); });
        m_session->start();
        // Given the workbench leads
        QTRY_VERIFY_WITH_TIMEOUT(m_state.role == LeadershipState::Role::Leader, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.holder, m_state.identity, 5000);
        QVERIFY(m_state.identity.startsWith(u"workbench-"));
        QVERIFY(m_state.handOffPossible);
        QTRY_VERIFY(m_panel.handOffButton()->isEnabled());
        Expected<RestConfig> cfg = loadConfig(m_session->cluster().kubeconfigPath);
        QVERIFY(cfg.ok());
        m_rest = std::make_unique<RestClient>(cfg.value());
        QCOMPARE(lease().holderIdentity(), m_state.identity);
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_rest.reset();
    }

    void shouldMoveTheLeaseToTheHeadlessProcess()
    {
        const int transitions = lease().leaseTransitions();
        // When the user hands off
        m_session->post(&Leadership::handOff);
        // Then the process runs, takes the lease, and the workbench stops campaigning
        QTRY_VERIFY2_WITH_TIMEOUT(m_state.headless == LeadershipState::Headless::Running,
            qPrintable(m_state.headlessMessage + u'\n' + m_log.join(u'\n')), 10000);
        QVERIFY(m_state.headlessPid > 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.holder, m_state.headlessIdentity, 30000);
        QCOMPARE(lease().holderIdentity(), m_state.headlessIdentity);
        QVERIFY(lease().leaseTransitions() > transitions);
        QCOMPARE(m_state.role, LeadershipState::Role::HandedOff);
        QVERIFY(m_panel.holderLabel()->text().contains(u"headless opbench-operator"));
        QVERIFY(m_panel.takeBackButton()->isEnabled());
        QVERIFY(!m_panel.handOffButton()->isEnabled());
        // and its log lines are shown
        QTRY_VERIFY(m_log.join(u'\n').contains(u"acquired lease"));
        QVERIFY(m_panel.logView()->toPlainText().contains(u"acquired lease"));
    }

    void shouldTakeBackAndTheProcessExitsZero()
    {
        QCOMPARE(m_state.role, LeadershipState::Role::HandedOff);
        // When the user takes back
        m_session->post(&Leadership::takeBack);
        // Then the process stops cleanly and the workbench leads again
        QTRY_VERIFY_WITH_TIMEOUT(m_state.headless == LeadershipState::Headless::Exited, 20000);
        QCOMPARE(m_state.headlessExitCode, 0);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.role == LeadershipState::Role::Leader, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(lease().holderIdentity(), m_state.identity, 10000);
        QVERIFY(m_panel.headlessLabel()->text().contains(u"exited with code 0"));
        QVERIFY(m_panel.handOffButton()->isEnabled());
        // and the recording the process made while it led is offered
        QTRY_VERIFY_WITH_TIMEOUT(!m_state.recordingPath.isEmpty(), 5000);
        QVERIFY2(QFile::exists(m_state.recordingPath), qPrintable(m_state.recordingPath));
        QVERIFY2(
            m_state.recordingReconciles > 0, qPrintable(m_state.recordingMessage)); // the samples' initial reconciles
        QVERIFY(m_state.recordingMessage.startsWith(
            QStringLiteral("recording available: %1 (").arg(m_state.recordingPath)));
        QVERIFY(m_log.contains(m_state.recordingMessage));
        QVERIFY(!m_panel.openRecordingButton()->isHidden());
        QSignalSpy open(&m_panel, &LeadershipPanel::openRecordingRequested);
        m_panel.openRecordingButton()->click();
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.first().at(0).toString(), m_state.recordingPath);
    }

    void shouldReportAProcessThatDies()
    {
        // Given a second hand-off
        m_session->post(&Leadership::handOff);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.headless == LeadershipState::Headless::Running, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.holder, m_state.headlessIdentity, 30000);
        // When the process is killed
        ::kill(pid_t(m_state.headlessPid), SIGKILL);
        // Then the workbench says so, and stays handed off until the user takes back
        QTRY_VERIFY_WITH_TIMEOUT(m_state.headless == LeadershipState::Headless::Exited, 10000);
        QVERIFY2(m_state.headlessMessage.contains(u"killed"), qPrintable(m_state.headlessMessage));
        QCOMPARE(m_state.role, LeadershipState::Role::HandedOff);
        QVERIFY(m_panel.takeBackButton()->isEnabled());
        m_session->post(&Leadership::takeBack);
        // (the dead holder's lease must expire first: 15 s)
        QTRY_VERIFY_WITH_TIMEOUT(m_state.role == LeadershipState::Role::Leader, 30000);
        QCOMPARE(lease().holderIdentity(), m_state.identity);
    }

    void shouldNameTheLeaderInTheWindow()
    {
        // Given a workbench window on its own embedded cluster (one operator per process at a time)
        m_session.reset();
        SessionOptions o;
        o.createSamples = false;
        MainWindow window(o);
        // Then, once it leads, the status bar says so and the toolbar offers the hand-off
        QTRY_VERIFY2_WITH_TIMEOUT(statusTexts(window).contains(QStringLiteral("leader: this workbench")),
            qPrintable(statusTexts(window).join(u'|')), 30000);
        QVERIFY(window.action(QStringLiteral("handOff"))->isEnabled());
        QCOMPARE(window.action(QStringLiteral("handOff"))->text(), QStringLiteral("Hand off"));
    }

private:
    static QStringList statusTexts(const MainWindow &window)
    {
        QStringList out;
        for (const QLabel *l : window.statusBar()->findChildren<QLabel *>())
            out.append(l->text());
        return out;
    }

    Lease lease()
    {
        const GroupVersionResource leases{
            QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
        Expected<Object> r = QCoro::waitFor(m_rest->get(leases, m_state.leaseNamespace, m_state.leaseName));
        return r ? Lease(r.value()) : Lease();
    }

    std::unique_ptr<EngineSession> m_session;
    std::unique_ptr<RestClient> m_rest;
    LeadershipPanel m_panel;
    LeadershipState m_state;
    QStringList m_log;
};

QTEST_MAIN(tst_HandOff)
#include "tst_handoff.moc"
