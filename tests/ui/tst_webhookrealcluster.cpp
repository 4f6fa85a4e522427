// SPDX-License-Identifier: Apache-2.0
// Webhook breakpoints on a real cluster (issue 24 follow-up). The workbench serves the operator's
// own webhooks only to its embedded cluster: on a cluster reached through a kubeconfig (here a
// loopback test API server, which the workbench treats as any real cluster) no call can reach
// its webhook gate. So a "webhook …" breakpoint typed in the Breakpoints dock is added but says
// that it never hits and why (the dock's status line, the row greyed with the reason as its
// tooltip), while the controller's breakpoints are listed as usual; and the Admission dock's Step
// into webhook is disabled with the same reason as its tooltip.
#include "ui/mainwindow.h"
#include "ui/models/breakpointlistmodel.h"
#include "ui/session/hostedoperator.h"
#include "ui/widgets/admissionpanel.h"
#include "ui/widgets/breakpointspanel.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "tests/support/testapiserver.h"

#include <QBrush>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTest>

#include <qcoro/qcorotask.h>

#include <memory>

using namespace opbench;
using namespace opbench::ui;

namespace {

const QString kNeverHits = QStringLiteral(
    "never hits: on a real cluster the workbench does not serve the operator's webhooks; use the embedded cluster");

} // namespace

class tst_WebhookRealCluster : public QObject
{
    Q_OBJECT

    std::unique_ptr<testing::TestApiServer> m_api;
    std::unique_ptr<MainWindow> m_window;

    /// The Breakpoints dock's row listing `spec`, or -1.
    int rowOf(const QString &spec) const
    {
        const QAbstractItemModel *list = m_window->breakpointsPanel()->view()->model();
        for (int row = 0; row < list->rowCount(); ++row)
            if (list->index(row, BreakpointListModel::BreakpointColumn).data().toString() == spec)
                return row;
        return -1;
    }
    /// Types `spec` in the Breakpoints dock and presses Enter; whether it was listed.
    bool addBreakpoint(const QString &spec)
    {
        BreakpointsPanel *breakpoints = m_window->breakpointsPanel();
        breakpoints->specEdit()->setText(spec);
        QTest::keyClick(breakpoints->specEdit(), Qt::Key_Return);
        return QTest::qWaitFor([&] { return rowOf(spec) >= 0; }, 10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_webhookrealcluster"));
        QSettings().clear();
        m_api = std::make_unique<testing::TestApiServer>(testing::TestApiServer::plainOptions());
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        // The operator's CRD is installed, as on a cluster prepared for it (the window would
        // otherwise ask whether to install it).
        auto config = loadConfig(m_api->kubeconfigPath());
        QVERIFY(config.ok());
        RestClient kubectl(config.value());
        const Expected<void> installed = QCoro::waitFor(installCrds(&kubectl, hostedOperator().crds));
        QVERIFY2(installed.ok(), installed.ok() ? "" : qPrintable(installed.error().message()));

        SessionOptions options;
        options.kubeconfig = m_api->kubeconfigPath();
        m_window = std::make_unique<MainWindow>(options);
        QVERIFY(!m_window->session()->isEmbedded());
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        // Connected (the session's started() may come before the window is exposed)
        QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->cluster().server.isValid(), 30000);
        QVERIFY(!m_window->session()->cluster().embedded);
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_api.reset();
    }

    void stepIntoWebhookIsOffAndSaysWhy()
    {
        QPushButton *stepInto = m_window->admissionPanel()->stepIntoButton();
        QTRY_VERIFY2_WITH_TIMEOUT(stepInto->toolTip().contains(kNeverHits), qPrintable(stepInto->toolTip()), 30000);
        QVERIFY(!stepInto->isEnabled());
    }

    void aWebhookBreakpointSaysItNeverHits()
    {
        BreakpointsPanel *breakpoints = m_window->breakpointsPanel();
        const QAbstractItemModel *list = breakpoints->view()->model();

        // When the user adds a webhook breakpoint
        const QString webhook = QStringLiteral("webhook validate op=CREATE");
        QVERIFY(addBreakpoint(webhook));
        const int row = rowOf(webhook);

        // Then the dock says it was added but never hits, and why
        QTRY_VERIFY2_WITH_TIMEOUT(breakpoints->statusLabel()->text().contains(kNeverHits),
            qPrintable(breakpoints->statusLabel()->text()), 10000);
        QVERIFY2(breakpoints->statusLabel()->text().startsWith(QStringLiteral("webhook validate op=CREATE added")),
            qPrintable(breakpoints->statusLabel()->text()));
        // and its row is greyed, each column's tooltip giving the reason
        for (int column = 0; column < list->columnCount(); ++column) {
            const QModelIndex cell = list->index(row, column);
            QCOMPARE(cell.data(Qt::ForegroundRole).value<QBrush>().color(), QColor(Qt::gray));
            QVERIFY2(cell.data(Qt::ToolTipRole).toString().contains(kNeverHits),
                qPrintable(cell.data(Qt::ToolTipRole).toString()));
        }
        QCOMPARE(list->index(row, BreakpointListModel::TypeColumn).data().toString(), QStringLiteral("webhook"));

        // When the user adds a controller breakpoint, it is listed as usual and the note goes
        const QString kind = QStringLiteral("kind MyApplication");
        QVERIFY(addBreakpoint(kind));
        QTRY_VERIFY2_WITH_TIMEOUT(!breakpoints->statusLabel()->text().contains(QStringLiteral("never hits")),
            qPrintable(breakpoints->statusLabel()->text()), 10000);
        QVERIFY(!list->index(rowOf(kind), 0).data(Qt::ForegroundRole).isValid());
        QVERIFY(!list->index(rowOf(kind), 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("never hits")));
        // while the webhook breakpoint's row still says why
        QVERIFY(list->index(rowOf(webhook), 0).data(Qt::ToolTipRole).toString().contains(kNeverHits));
    }
};

QTEST_MAIN(tst_WebhookRealCluster)
#include "tst_webhookrealcluster.moc"
