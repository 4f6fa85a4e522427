// SPDX-License-Identifier: Apache-2.0
// Breakpoints and stepping on the operator's own webhook handlers (issue 24), through the
// offscreen window on the embedded cluster with the sample MyApplication operator, whose
// defaulting and validating webhooks the workbench serves on loopback. A "webhook …" breakpoint
// typed in the Breakpoints dock holds a kubectl-like create before the validating handler runs:
// the Admission dock shows the call "held at breakpoint" with the review's request, the client
// waits; Continue lets the handler answer. Step shows the handler's verdict before it is sent
// (a denial for an image without a tag), and Continue then sends it. Step into webhook holds
// the next call, whichever it is. A webhook whose handler failed (a 5xx in its answer) is listed
// as failed, not as a denial. The toolbar's Continue (Shift+F5) lets every held call go on, as a
// debugger's Continue does, and the status bar says a webhook call is held.
#include "tests/ui/myappfixture.h"
#include "ui/mainwindow.h"
#include "ui/models/admissionlistmodel.h"
#include "ui/widgets/admissionpanel.h"
#include "ui/widgets/breakpointspanel.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QToolBar>

#include <qcoro/qcorotask.h>

#include <memory>
#include <optional>

using namespace opbench;
using namespace opbench::testing;
using namespace opbench::ui;

namespace {

const GroupVersionResource kMyApps(
    QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("myapplications"));
const QString kValidate = QStringLiteral("/validate-example-com-v1alpha1-myapplication");

using Outcome = std::shared_ptr<std::optional<Expected<Object>>>;

/// Creates `object` in "default" through `client`, then fills `outcome` (the test waits on it).
QCoro::Task<void> createInto(RestClient *client, Object object, Outcome outcome)
{
    const GroupVersionResource gvr = kMyApps;
    const QString ns = QStringLiteral("default");
    Expected<Object> result = co_await client->create(gvr, ns, object);
    *outcome = result;
}

/// The error of a failed outcome ("" when it succeeded).
QString errorOf(const Outcome &outcome)
{
    return outcome->has_value() && !outcome->value().ok() ? outcome->value().error().message() : QString();
}

QString resultOfRow(const QAbstractItemModel *list, int row)
{
    return list->index(row, AdmissionListModel::ResultColumn).data().toString();
}

} // namespace

class tst_WebhookStep : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<RestClient> m_kubectl;
    bool m_started = false;

    /// Starts creating MyApplication default/`name`; the outcome is filled when the server answers.
    Outcome startCreate(const QString &name, const QString &image)
    {
        auto outcome = std::make_shared<std::optional<Expected<Object>>>();
        createInto(m_kubectl.get(), myApp(name, image, 1), outcome); // runs on while the test waits
        return outcome;
    }
    void addBreakpoint(const QString &spec)
    {
        BreakpointsPanel *breakpoints = m_window->breakpointsPanel();
        breakpoints->specEdit()->setText(spec);
        QTest::keyClick(breakpoints->specEdit(), Qt::Key_Return);
        QTableView *list = breakpoints->view();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < list->model()->rowCount(); ++row)
                    if (list->model()->index(row, 0).data().toString() == spec)
                        return true;
                return false;
            }(),
            10000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_webhookstep"));
        QSettings().clear();
        m_window = std::make_unique<MainWindow>(SessionOptions{});
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        connect(m_window->session(), &EngineSession::started, this, [this] { m_started = true; });
        QTRY_VERIFY_WITH_TIMEOUT(m_started, 30000);
        auto config = loadConfig(m_window->session()->cluster().kubeconfigPath);
        QVERIFY(config.ok());
        m_kubectl = std::make_unique<RestClient>(config.value());
        // The operator's webhooks are served and gated once the manager runs, and registered with
        // the server before the samples are created: their calls are listed then.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->admissionPanel()->stepIntoButton()->isEnabled(), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->admissionPanel()->view()->model()->rowCount() > 0, 30000);
    }

    void cleanupTestCase()
    {
        m_kubectl.reset();
        m_window.reset();
    }

    void continueLetsTheHeldCallAnswer()
    {
        // Given a breakpoint on the validating webhook, for one object's create
        addBreakpoint(QStringLiteral("webhook %1 op=CREATE name=default/held-app").arg(kValidate));
        AdmissionPanel *panel = m_window->admissionPanel();
        QTableView *view = panel->view();

        // When a client creates that object
        const Outcome created = startCreate(QStringLiteral("held-app"), QStringLiteral("nginx:1.27"));

        // Then the Admission dock comes up with the call held, and the client waits
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("admissionDock"));
        QTRY_VERIFY_WITH_TIMEOUT(dock->isVisible(), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(resultOfRow(view->model(), 0), QStringLiteral("held at breakpoint"), 30000);
        QCOMPARE(view->model()->index(0, AdmissionListModel::ObjectColumn).data().toString(),
            QStringLiteral("MyApplication default/held-app"));
        QCOMPARE(
            view->model()->index(0, AdmissionListModel::OperationColumn).data().toString(), QStringLiteral("CREATE"));
        QVERIFY(panel->continueButton()->isEnabled());
        QVERIFY(panel->stepButton()->isEnabled());
        QVERIFY2(panel->holdLabel()->text().contains(QStringLiteral("held")), qPrintable(panel->holdLabel()->text()));
        const QString request = panel->requestView()->toPlainText();
        QVERIFY2(request.startsWith(QStringLiteral("# AdmissionReview request")), qPrintable(request));
        QVERIFY2(request.contains(QStringLiteral("\"operation\": \"CREATE\"")), qPrintable(request));
        QVERIFY(request.contains(QStringLiteral("nginx:1.27")));
        QVERIFY(!created->has_value());

        // When the user presses Continue, the handler allows it and the client's create succeeds
        QTest::mouseClick(panel->continueButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(created->has_value(), 30000);
        QVERIFY2(created->value().ok(), qPrintable(errorOf(created)));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->continueButton()->isEnabled(), 10000);
        QVERIFY(resultOfRow(view->model(), 0) != QStringLiteral("held at breakpoint"));
    }

    void stepShowsTheVerdictBeforeItIsSent()
    {
        addBreakpoint(QStringLiteral("webhook validate name=default/stepped-app"));
        AdmissionPanel *panel = m_window->admissionPanel();
        QTableView *view = panel->view();
        // An image without a tag: the validating handler refuses it
        const Outcome created = startCreate(QStringLiteral("stepped-app"), QStringLiteral("nginx"));
        QTRY_COMPARE_WITH_TIMEOUT(resultOfRow(view->model(), 0), QStringLiteral("held at breakpoint"), 30000);

        QTest::mouseClick(panel->stepButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            resultOfRow(view->model(), 0).startsWith(QStringLiteral("stepped: denied (422)")), 30000);
        QVERIFY2(panel->diffView()->toPlainText().contains(QStringLiteral("must carry a tag or a digest")),
            qPrintable(panel->diffView()->toPlainText()));
        QVERIFY(panel->continueButton()->isEnabled());
        QVERIFY(!created->has_value()); // the answer is not sent yet

        QTest::mouseClick(panel->continueButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(created->has_value(), 30000);
        QVERIFY(!created->value().ok());
        QCOMPARE(created->value().error().code(), 422);
        QVERIFY2(
            errorOf(created).contains(QStringLiteral("must carry a tag or a digest")), qPrintable(errorOf(created)));
    }

    void aFailedHandlerIsListedAsFailed_data()
    {
        QTest::addColumn<bool>("allowed");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("denied") << false << 403 << QStringLiteral("denied (403)");
        QTest::newRow("invalid") << false << 422 << QStringLiteral("denied (422)");
        // controller-runtime answers a handler's panic with code 500: a failure, not a verdict
        QTest::newRow("handler threw") << false << 500 << QStringLiteral("failed: webhook error (500)");
        QTest::newRow("allowed") << true << 200 << QStringLiteral("allowed");
    }
    void aFailedHandlerIsListedAsFailed()
    {
        QFETCH(bool, allowed);
        QFETCH(int, code);
        QFETCH(QString, verdict);
        apiserver::WebhookCallRecord record;
        record.webhook = QStringLiteral("vmyapplication.example.com");
        record.allowed = allowed;
        record.code = code;
        QCOMPARE(AdmissionListModel::verdict(record), verdict);
    }

    void stepIntoHoldsTheNextCall()
    {
        AdmissionPanel *panel = m_window->admissionPanel();
        QTableView *view = panel->view();
        QTest::mouseClick(panel->stepIntoButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(panel->stepIntoButton()->isChecked(), 10000);
        const Outcome created = startCreate(QStringLiteral("into-app"), QStringLiteral("nginx:1.27"));
        QTRY_COMPARE_WITH_TIMEOUT(resultOfRow(view->model(), 0), QStringLiteral("held at breakpoint"), 30000);
        QVERIFY2(panel->holdLabel()->text().contains(QStringLiteral("by step into")),
            qPrintable(panel->holdLabel()->text()));
        QVERIFY(!panel->stepIntoButton()->isChecked()); // once
        QTest::mouseClick(panel->continueButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(created->has_value(), 30000);
        QVERIFY2(created->value().ok(), qPrintable(errorOf(created)));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->continueButton()->isEnabled(), 10000);
    }

    void toolbarContinueLetsEveryHeldCallAnswer()
    {
        // Given two creates held at the validating webhook, the controller running
        addBreakpoint(QStringLiteral("webhook validate name=default/continued-a"));
        addBreakpoint(QStringLiteral("webhook validate name=default/continued-b"));
        AdmissionPanel *panel = m_window->admissionPanel();
        const Outcome first = startCreate(QStringLiteral("continued-a"), QStringLiteral("nginx:1.27"));
        const Outcome second = startCreate(QStringLiteral("continued-b"), QStringLiteral("nginx:1.27"));
        QTRY_COMPARE_WITH_TIMEOUT(resultOfRow(panel->view()->model(), 1), QStringLiteral("held at breakpoint"), 30000);
        QCOMPARE(resultOfRow(panel->view()->model(), 0), QStringLiteral("held at breakpoint"));

        // Then the toolbar's Continue (Shift+F5) can let them go, and the status bar says that
        // webhook calls are what is held (the reconciles run)
        QAction *continueAction = m_window->action(QStringLiteral("continue"));
        QTRY_VERIFY_WITH_TIMEOUT(continueAction->isEnabled(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            m_window->statusBar()->currentMessage().contains(QStringLiteral("2 webhook calls held")),
            qPrintable(m_window->statusBar()->currentMessage()), 10000);
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("MyApplication default/continued-")),
            qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(!first->has_value() && !second->has_value());

        // When the user presses Continue in the toolbar
        auto *toolbar = m_window->findChild<QToolBar *>(QStringLiteral("controlToolBar"));
        QTest::mouseClick(toolbar->widgetForAction(continueAction), Qt::LeftButton);

        // Then both handlers answer and both creates succeed; nothing is held any more
        QTRY_VERIFY_WITH_TIMEOUT(first->has_value() && second->has_value(), 30000);
        QVERIFY2(first->value().ok(), qPrintable(errorOf(first)));
        QVERIFY2(second->value().ok(), qPrintable(errorOf(second)));
        QTRY_VERIFY_WITH_TIMEOUT(!panel->continueButton()->isEnabled(), 10000);
        QTRY_VERIFY2_WITH_TIMEOUT(!m_window->statusBar()->currentMessage().contains(QStringLiteral("held")),
            qPrintable(m_window->statusBar()->currentMessage()), 10000);
    }
};

QTEST_MAIN(tst_WebhookStep)
#include "tst_webhookstep.moc"
