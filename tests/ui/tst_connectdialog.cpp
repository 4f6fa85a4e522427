// SPDX-License-Identifier: Apache-2.0
// Connect to cluster…: the dialog lists the contexts of KUBECONFIG (the embedded server's own
// kubeconfig merged with a file of broken contexts) and reports each failure in words:
// unreachable (a closed port), TLS (wrong server name), 401 (wrong token), 403 naming the verb
// and resource (a user limited to one namespace), CRD missing with an offer to install it (which
// then works). A working context is accepted.
#include "ui/dialogs/connectdialog.h"
#include "ui/mainwindow.h"
#include "ui/workbenchhost.h"

#include "engine/client/kubeconfig.h"
#include "tests/support/testapiserver.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_ConnectDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const QString rules = m_dir.filePath(QStringLiteral("rules.yaml"));
        QFile r(rules);
        QVERIFY(r.open(QIODevice::WriteOnly));
        r.write("users:\n- name: narrow\n  token: narrow-token\n  namespaces: [team-a]\n");
        r.close();
        apiserver::ApiServerOptions o = testing::TestApiServer::httpsOptions();
        o.rulesFile = rules;
        m_api = std::make_unique<testing::TestApiServer>(o);
        QVERIFY2(m_api->start(), qPrintable(m_api->errorString()));
        apiserver::ApiServerOptions bare = testing::TestApiServer::plainOptions();
        bare.crds.clear();
        m_bare = std::make_unique<testing::TestApiServer>(bare);
        QVERIFY2(m_bare->start(), qPrintable(m_bare->errorString()));
        QVERIFY(m_silent.listen(QHostAddress::LocalHost)); // accepts, never answers
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost));
        const quint16 closedPort = closed.serverPort();
        closed.close();
        // The embedded server's kubeconfig (context "opbench") first, then the broken contexts.
        const QString extra = m_dir.filePath(QStringLiteral("extra.yaml"));
        QFile f(extra);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QStringLiteral("apiVersion: v1\nkind: Config\nclusters:\n"
                           "- name: closed\n  cluster:\n    server: https://127.0.0.1:%1\n"
                           "- name: misnamed\n  cluster:\n    server: %2\n    certificate-authority-data: %3\n"
                           "    tls-server-name: wrong.example.invalid\n"
                           "- name: bare\n  cluster:\n    server: %4\n"
                           "- name: silent\n  cluster:\n    server: http://127.0.0.1:%5\n"
                           "users:\n- name: wrong\n  user:\n    token: not-the-token\n"
                           "- name: narrow\n  user:\n    token: narrow-token\n"
                           "- name: bare-admin\n  user:\n    token: test-token\n"
                           "contexts:\n"
                           "- name: unreachable\n  context: {cluster: closed, user: opbench-admin}\n"
                           "- name: tls\n  context: {cluster: misnamed, user: opbench-admin}\n"
                           "- name: wrong-token\n  context: {cluster: opbench, user: wrong}\n"
                           "- name: forbidden\n  context: {cluster: opbench, user: narrow, namespace: team-a}\n"
                           "- name: no-crd\n  context: {cluster: bare, user: bare-admin}\n"
                           "- name: silent\n  context: {cluster: silent, user: bare-admin}\n")
                .arg(closedPort)
                .arg(m_api->url().toString(), QString::fromLatin1(m_api->caPem().toBase64()), m_bare->url().toString())
                .arg(m_silent.serverPort())
                .toUtf8());
        f.close();
        qputenv("KUBECONFIG", (m_api->kubeconfigPath() + u':' + extra).toUtf8());
    }

    void shouldListTheEmbeddedClusterAndEveryContext()
    {
        ConnectDialog dialog;
        QCOMPARE(dialog.contextNames(),
            (QStringList{QString(), QStringLiteral("opbench"), QStringLiteral("unreachable"), QStringLiteral("tls"),
                QStringLiteral("wrong-token"), QStringLiteral("forbidden"), QStringLiteral("no-crd"),
                QStringLiteral("silent")}));
        QVERIFY(dialog.selectedOptions().context.isEmpty()); // embedded by default
        QVERIFY(dialog.selectContext(QStringLiteral("tls")));
        QCOMPARE(dialog.selectedOptions().context, QStringLiteral("tls"));
    }

    void shouldReportFailuresInWords_data()
    {
        QTest::addColumn<QString>("context");
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("closed port") << QStringLiteral("unreachable") << int(ProbeResult::Outcome::Unreachable)
                                     << QStringList{
                                            QStringLiteral("Cannot reach the API server"), QStringLiteral("127.0.0.1")};
        QTest::newRow("tls") << QStringLiteral("tls") << int(ProbeResult::Outcome::Tls)
                             << QStringList{
                                    QStringLiteral("TLS verification failed"), QStringLiteral("wrong.example.invalid")};
        QTest::newRow("401") << QStringLiteral("wrong-token") << int(ProbeResult::Outcome::Unauthorized)
                             << QStringList{QStringLiteral("401 Unauthorized"), QStringLiteral("wrong-token")};
        QTest::newRow("403") << QStringLiteral("forbidden") << int(ProbeResult::Outcome::Forbidden)
                             << QStringList{QStringLiteral("403 Forbidden"),
                                    QStringLiteral("may not list myapplications.example.com")};
        QTest::newRow("crd") << QStringLiteral("no-crd") << int(ProbeResult::Outcome::CrdMissing)
                             << QStringList{QStringLiteral("CRD"), QStringLiteral("not installed")};
    }

    void shouldReportFailuresInWords()
    {
        QFETCH(QString, context);
        QFETCH(int, outcome);
        QFETCH(QStringList, words);
        // Given the dialog with a broken context selected
        ConnectDialog dialog;
        QVERIFY(dialog.selectContext(context));
        QSignalSpy probed(&dialog, &ConnectDialog::probeFinished);
        // When the user presses Connect
        dialog.connectSelected();
        // Then the dialog stays open and says what is wrong
        QVERIFY(probed.wait(15000));
        qInfo("%s", qPrintable(dialog.messageLabel()->text()));
        QCOMPARE(int(dialog.lastResult().outcome), outcome);
        for (const QString &w : words)
            QVERIFY2(dialog.messageLabel()->text().contains(w), qPrintable(dialog.messageLabel()->text()));
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QCOMPARE(dialog.installCrdButton()->isVisibleTo(&dialog), context == u"no-crd");
    }

    void shouldHangUpAPendingProbeWhenTheDialogCloses()
    {
        // Given a check waiting on a server that took the connection and never answers
        auto dialog = std::make_unique<ConnectDialog>();
        QVERIFY(dialog->selectContext(QStringLiteral("silent")));
        dialog->testSelected();
        QVERIFY(m_silent.waitForNewConnection(5000));
        QTcpSocket *socket = m_silent.nextPendingConnection();
        QVERIFY(socket);
        QSignalSpy hungUp(socket, &QTcpSocket::disconnected);
        // When the dialog closes before the check's own 5 s timeout
        dialog.reset();
        // Then the check is finished and its connection closed (it was left suspended in the
        // stopped probe thread, its client and socket never freed)
        QVERIFY(hungUp.wait(4000));
    }

    void shouldInstallAMissingCrdAndThenConnect()
    {
        ConnectDialog dialog;
        QVERIFY(dialog.selectContext(QStringLiteral("no-crd")));
        QSignalSpy probed(&dialog, &ConnectDialog::probeFinished);
        dialog.testSelected();
        QVERIFY(probed.wait(15000));
        QCOMPARE(dialog.lastResult().outcome, ProbeResult::Outcome::CrdMissing);
        // When the user accepts the offer, the dialog installs the CRD and checks again
        dialog.installCrdButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.lastResult().ok(), 15000);
        QVERIFY2(dialog.messageLabel()->text().contains(u"Connected to"), qPrintable(dialog.messageLabel()->text()));
    }

    void shouldAcceptAWorkingContext()
    {
        ConnectDialog dialog;
        QVERIFY(dialog.selectContext(QStringLiteral("opbench")));
        QSignalSpy accepted(&dialog, &QDialog::accepted);
        dialog.connectSelected();
        QVERIFY(accepted.wait(15000));
        QVERIFY(dialog.lastResult().ok());
        QCOMPARE(dialog.selectedOptions().context, QStringLiteral("opbench"));
        QVERIFY(dialog.selectedOptions().kubeconfig.isEmpty()); // the KUBECONFIG lookup
    }

    void shouldRestartTheWorkbenchAgainstTheChosenContext()
    {
        // Given the workbench on the embedded cluster
        WorkbenchHost host;
        SessionOptions embedded;
        embedded.createSamples = false;
        QPointer<MainWindow> first = host.open(embedded);
        QSignalSpy firstStarted(first->session(), &EngineSession::started);
        QVERIFY(firstStarted.wait(30000));
        // When the user picks context "opbench" in Connect to cluster…
        SessionOptions chosen;
        chosen.context = QStringLiteral("opbench");
        Q_EMIT first->switchRequested(chosen);
        // Then a new window with a new session runs against that cluster, and the old one is gone
        QTRY_VERIFY_WITH_TIMEOUT(host.window() && first.isNull(), 15000);
        MainWindow *second = host.window();
        QCOMPARE(second->session()->options().context, QStringLiteral("opbench"));
        QSignalSpy started(second->session(), &EngineSession::started);
        QVERIFY(started.wait(30000));
        QCOMPARE(second->session()->cluster().server, m_api->url());
        QVERIFY(second->windowTitle().contains(m_api->url().toString()));
        QVERIFY(first.isNull());
        // and its operator runs (the old session released the controller's name)
        QTRY_VERIFY_WITH_TIMEOUT(second->action(QStringLiteral("pause"))->isEnabled(), 30000);
    }

    void cleanupTestCase()
    {
        m_api.reset();
        m_bare.reset();
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestApiServer> m_api;
    std::unique_ptr<testing::TestApiServer> m_bare;
    QTcpServer m_silent;
};

QTEST_MAIN(tst_ConnectDialog)
#include "tst_connectdialog.moc"
