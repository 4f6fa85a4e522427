// SPDX-License-Identifier: Apache-2.0
// The Admission dock (issue 24) through the offscreen window on the embedded cluster: a test
// HTTPS webhook registered as a user registers one (Validating/MutatingWebhookConfiguration
// created over HTTP), then ConfigMaps created with kubectl-like writes. Each call shows up as a
// row: a denial with kube-apiserver's message, a mutation with its JSONPatch and the object's
// YAML diff, an unreachable webhook as a failed call — ignored under failurePolicy Ignore, the
// request's 500 under Fail. Selecting a row shows its details; the filters narrow by webhook
// and by kind.
#include "tests/apiserver/webhookconfigs.h"
#include "tests/apiserver/webhookserver.h"
#include "tests/ui/myappfixture.h"
#include "ui/mainwindow.h"
#include "ui/models/admissionlistmodel.h"
#include "ui/widgets/admissionpanel.h"

#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QTableView>
#include <QTcpServer>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using namespace opbench::testing;
using namespace opbench::ui;

namespace {

const GroupVersionResource kConfigMaps(QString(), QStringLiteral("v1"), QStringLiteral("configmaps"));

GroupVersionResource configurations(bool mutating)
{
    return GroupVersionResource(QStringLiteral("admissionregistration.k8s.io"), QStringLiteral("v1"),
        mutating ? QStringLiteral("mutatingwebhookconfigurations") : QStringLiteral("validatingwebhookconfigurations"));
}

/// The row of the (unfiltered) list showing ConfigMap default/`name`, or -1.
int rowFor(const QAbstractItemModel *list, const QString &name)
{
    for (int row = 0; row < list->rowCount(); ++row)
        if (list->index(row, AdmissionListModel::ObjectColumn).data().toString()
            == QStringLiteral("ConfigMap default/") + name)
            return row;
    return -1;
}

} // namespace

class tst_AdmissionPanel : public QObject
{
    Q_OBJECT

    apiserver::TlsMaterial m_tls;
    testing::WebhookServer m_hooks; // opbench::WebhookServer is the operator's
    std::unique_ptr<MainWindow> m_window;
    std::unique_ptr<RestClient> m_kubectl;
    bool m_started = false;

    void addConfig(bool mutating, const QString &name, const QJsonArray &hooks)
    {
        auto r = QCoro::waitFor(m_kubectl->create(
            configurations(mutating), QString(), Object::fromJson(webhookConfiguration(mutating, name, hooks))));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
    }
    Expected<Object> createConfigMap(const QString &name, const QString &selector)
    {
        return QCoro::waitFor(m_kubectl->create(
            kConfigMaps, QStringLiteral("default"), Object::fromJson(labelledConfigMap(name, selector))));
    }
    /// Clicks the row showing ConfigMap `name` in the panel's (filtered) list.
    void clickRow(AdmissionPanel *panel, const QString &name)
    {
        QTableView *view = panel->view();
        const int row = rowFor(view->model(), name);
        QVERIFY2(row >= 0, qPrintable(name));
        const QRect rect = view->visualRect(view->model()->index(row, AdmissionListModel::ObjectColumn));
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(view->currentIndex().row(), row);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_admissionpanel"));
        QSettings().clear();
        auto tls = apiserver::TlsMaterial::generate();
        QVERIFY2(tls, qPrintable(tls ? QString() : tls.error().message()));
        m_tls = *tls;
        QVERIFY(m_hooks.start(m_tls));
        m_hooks.answer = [](const QString &path, const QJsonObject &) {
            if (path.startsWith(QLatin1String("/deny")))
                return QJsonObject{{"allowed", false},
                    {"status", QJsonObject{{"message", "spec.image must carry a tag or a digest"}}}};
            return addLabelResponse(QStringLiteral("defaulted"), QStringLiteral("yes"));
        };
        m_window = std::make_unique<MainWindow>(SessionOptions{});
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        connect(m_window->session(), &EngineSession::started, this, [this] { m_started = true; });
        QTRY_VERIFY_WITH_TIMEOUT(m_started, 30000);
        auto config = loadConfig(m_window->session()->cluster().kubeconfigPath);
        QVERIFY(config.ok());
        m_kubectl = std::make_unique<RestClient>(config.value());
    }

    void cleanupTestCase()
    {
        m_kubectl.reset();
        m_window.reset();
    }

    void shouldShowEveryCallWithItsVerdict()
    {
        // Given a validating webhook that denies, a mutating one that adds a label, and two that
        // cannot be reached (nothing listens on their port), one Ignore and one Fail
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        const QString down = QStringLiteral("https://127.0.0.1:%1/down").arg(closed.serverPort());
        closed.close();
        addConfig(false, QStringLiteral("image-policy"),
            {configMapHook(QStringLiteral("deny.example.com"), "deny", m_hooks.url("/deny"), m_tls.caCert)});
        addConfig(true, QStringLiteral("defaults"),
            {configMapHook(QStringLiteral("label.example.com"), "mutate", m_hooks.url("/mutate"), m_tls.caCert)});
        addConfig(true, QStringLiteral("down"),
            {configMapHook(QStringLiteral("down-ignore.example.com"), "ignore", down, m_tls.caCert,
                 {{"failurePolicy", "Ignore"}}),
                configMapHook(
                    QStringLiteral("down-fail.example.com"), "fail", down, m_tls.caCert, {{"failurePolicy", "Fail"}})});

        // When four ConfigMaps are created, one for each
        auto refused = createConfigMap(QStringLiteral("refused"), QStringLiteral("deny"));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code(), 403);
        QVERIFY(createConfigMap(QStringLiteral("defaulted"), QStringLiteral("mutate")).ok());
        QVERIFY(createConfigMap(QStringLiteral("ignored"), QStringLiteral("ignore")).ok());
        auto failed = createConfigMap(QStringLiteral("failed"), QStringLiteral("fail"));
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().code(), 500);

        // Then the Admission dock lists the four calls, newest on top, with their verdicts
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("admissionDock"));
        QVERIFY(dock);
        dock->show();
        dock->raise();
        AdmissionPanel *panel = m_window->admissionPanel();
        QTRY_VERIFY(panel->isVisible());
        QTableView *view = panel->view();
        // The sample operator's own webhooks (MyApplication's defaulting and validating ones,
        // registered by the workbench) were called for its samples: they are listed too.
        QComboBox *byKind = panel->kindFilter();
        QTRY_VERIFY_WITH_TIMEOUT(byKind->findText(QStringLiteral("MyApplication")) > 0, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(byKind->findText(QStringLiteral("ConfigMap")) > 0, 10000);
        byKind->setCurrentIndex(byKind->findText(QStringLiteral("ConfigMap")));
        QTRY_COMPARE_WITH_TIMEOUT(view->model()->rowCount(), 4, 10000);
        QCOMPARE(view->model()->index(0, AdmissionListModel::ObjectColumn).data().toString(),
            QStringLiteral("ConfigMap default/failed"));
        const auto result = [view](const QString &name) {
            return view->model()
                ->index(rowFor(view->model(), name), AdmissionListModel::ResultColumn)
                .data()
                .toString();
        };
        QCOMPARE(result(QStringLiteral("refused")), QStringLiteral("denied (403)"));
        QCOMPARE(result(QStringLiteral("defaulted")), QStringLiteral("patched (1 op)"));
        QCOMPARE(result(QStringLiteral("ignored")), QStringLiteral("failed: unreachable (ignored)"));
        QCOMPARE(result(QStringLiteral("failed")), QStringLiteral("failed: unreachable"));
        const QRegularExpressionMatch counted
            = QRegularExpression(QStringLiteral("^4 of (\\d+) calls$")).match(panel->countLabel()->text());
        QVERIFY2(counted.hasMatch(), qPrintable(panel->countLabel()->text()));
        const int all = counted.captured(1).toInt();
        QVERIFY(all > 4);

        // The denial: the webhook's message as the client got it
        clickRow(panel, QStringLiteral("refused"));
        QVERIFY2(panel->summaryLabel()->text().contains(
                     QStringLiteral("The client got 403: admission webhook \"deny.example.com\" denied the request: "
                                    "spec.image must carry a tag or a digest")),
            qPrintable(panel->summaryLabel()->text()));
        QVERIFY(panel->diffView()->toPlainText().startsWith(QStringLiteral("# no patch: the object as sent")));
        QVERIFY(panel->requestView()->toPlainText().contains(QStringLiteral("configuration:  image-policy")));

        // The mutation: the patch and the object's YAML diff, the added label on a "+" line
        clickRow(panel, QStringLiteral("defaulted"));
        const QString diff = panel->diffView()->toPlainText();
        QVERIFY2(diff.contains(QStringLiteral("# JSONPatch from label.example.com (1 operation)")), qPrintable(diff));
        QVERIFY2(diff.contains(QStringLiteral("#   add /metadata/labels/defaulted: \"yes\"")), qPrintable(diff));
        QVERIFY2(diff.contains(QRegularExpression(QStringLiteral("\n\\+\\s+defaulted: \"?yes\"?"))), qPrintable(diff));

        // The failed calls: unreachable, and what failurePolicy made of it
        clickRow(panel, QStringLiteral("ignored"));
        QVERIFY2(panel->summaryLabel()->text().contains(QStringLiteral("connect: connection refused")),
            qPrintable(panel->summaryLabel()->text()));
        QVERIFY(panel->summaryLabel()->text().contains(QStringLiteral("failurePolicy Ignore")));
        clickRow(panel, QStringLiteral("failed"));
        QVERIFY2(panel->summaryLabel()->text().contains(
                     QStringLiteral("The client got 500: Internal error occurred: failed calling webhook "
                                    "\"down-fail.example.com\"")),
            qPrintable(panel->summaryLabel()->text()));

        // The filters: one webhook, then one kind
        byKind->setCurrentIndex(0);
        QVERIFY(view->model()->rowCount() >= all); // the sample's calls may still be arriving
        QCOMPARE(byKind->count(), 3);              // All kinds, ConfigMap, MyApplication
        QComboBox *byWebhook = panel->webhookFilter();
        // All webhooks, the test's four, the sample's two (published by the dock's 100 ms batches)
        QTRY_COMPARE_WITH_TIMEOUT(byWebhook->count(), 7, 10000);
        QVERIFY(byWebhook->findText(QStringLiteral("vmyapplication.example.com")) > 0);
        byWebhook->setCurrentIndex(byWebhook->findText(QStringLiteral("deny.example.com")));
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(rowFor(view->model(), QStringLiteral("refused")), 0);
        QVERIFY2(QRegularExpression(QStringLiteral("^1 of \\d+ calls$")).match(panel->countLabel()->text()).hasMatch(),
            qPrintable(panel->countLabel()->text()));
    }
};

QTEST_MAIN(tst_AdmissionPanel)
#include "tst_admissionpanel.moc"
