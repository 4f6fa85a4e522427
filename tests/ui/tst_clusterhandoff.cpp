// SPDX-License-Identifier: Apache-2.0
// Hand-off on a "real" cluster: an embedded API server reached only through its kubeconfig (not
// embedded mode), so the workbench applies the packaging/ manifests instead of starting a
// process. Hand off: the CRD, ServiceAccount, RBAC and the Deployment exist with the chosen image
// and 1 replica, and the workbench no longer holds the Lease. Take back: the Deployment is scaled
// to 0 and the workbench holds the Lease again. Nothing runs the image here (the simulator makes
// pods, not an operator). The panel asks for the image (the shipped one offered). A user who may
// not create cluster objects gets the server's 403 in words.
#include "engine/operator/definition.h"
#include "engine/operator/myapplication.h"
#include "engine/workbench/clusterhandoff.h"
#include "ui/session/enginesession.h"
#include "ui/widgets/leadershippanel.h"

#include "engine/api/lease.h"
#include "engine/client/restclient.h"
#include "engine/client/restconfig.h"
#include "tests/support/testapiserver.h"

#include <QApplication>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace opbench;
using namespace opbench::ui;

namespace {

const GroupVersionResource Deployments{QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("deployments")};
const QString Image = QStringLiteral("registry.example.com/opbench-operator:test");

} // namespace

class tst_ClusterHandOff : public QObject
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
        SessionOptions so;
        so.kubeconfig = m_api->kubeconfigPath();
        m_session = std::make_unique<EngineSession>(so);
        QVERIFY(!m_session->isEmbedded());
        connect(m_session->leadership(), &Leadership::leadershipState, this, [this](const LeadershipState &s) {
            m_state = s;
            m_panel.apply(s);
        });
        connect(m_session.get(), &EngineSession::failed, this,
            [](const QString &m) { qWarning("session failed: %s", qPrintable(m)); });
        m_session->start();
        // Given the workbench leads on a cluster it reached through a kubeconfig
        QTRY_VERIFY_WITH_TIMEOUT(m_state.role == LeadershipState::Role::Leader, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.holder, m_state.identity, 5000);
        auto cfg = loadConfig(m_api->kubeconfigPath());
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : qPrintable(cfg.error().message()));
        m_rest = std::make_unique<RestClient>(cfg.value());
    }

    void cleanupTestCase()
    {
        m_session.reset();
        m_rest.reset();
        m_api.reset();
    }

    void shouldOfferTheClusterHandOffWithTheShippedImage()
    {
        QVERIFY(m_state.clusterHandOff);
        QVERIFY(m_state.handOffPossible);
        QCOMPARE(m_state.defaultImage, QStringLiteral("opbench-operator:0.1.0"));
        QVERIFY(m_panel.handOffButton()->isEnabled());
        QVERIFY(m_panel.handOffButton()->text().contains(u"cluster"));
        QVERIFY(!m_panel.takeBackButton()->isEnabled());
    }

    void shouldApplyTheManifestsAndReleaseTheLease()
    {
        // When the user hands off with an image of their choice
        m_session->post(&Leadership::handOffToCluster, Image);
        // Then every manifest is applied and the workbench stops leading
        QTRY_VERIFY2_WITH_TIMEOUT(
            m_state.deployment == LeadershipState::Deployment::Applied, qPrintable(m_state.deploymentMessage), 20000);
        qInfo("hand off: %s", qPrintable(m_state.deploymentMessage));
        QVERIFY2(m_state.deploymentMessage.contains(u"applied 9 objects"), qPrintable(m_state.deploymentMessage));
        QCOMPARE(m_state.role, LeadershipState::Role::HandedOff);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.holder.isEmpty(), 5000);
        QVERIFY(lease().holderIdentity() != m_state.identity);
        const QJsonObject spec = deploymentSpec();
        QCOMPARE(spec.value(u"replicas").toInt(), 1);
        const QJsonObject container = spec.value(u"template")
                                          .toObject()
                                          .value(u"spec")
                                          .toObject()
                                          .value(u"containers")
                                          .toArray()
                                          .at(0)
                                          .toObject();
        QCOMPARE(container.value(u"image").toString(), Image);
        QVERIFY(container.value(u"args").toArray().contains(QStringLiteral("--leader-election-namespace=default")));
        QVERIFY(exists({QString(), QStringLiteral("v1"), QStringLiteral("serviceaccounts")},
            QStringLiteral("opbench-system"), QStringLiteral("opbench-operator")));
        const QString rbac = QStringLiteral("rbac.authorization.k8s.io");
        QVERIFY(exists(
            {rbac, QStringLiteral("v1"), QStringLiteral("clusterroles")}, {}, QStringLiteral("opbench-operator")));
        QVERIFY(exists({rbac, QStringLiteral("v1"), QStringLiteral("clusterrolebindings")}, {},
            QStringLiteral("opbench-operator")));
        // the leader-election Role sits next to the workbench's Lease
        QVERIFY(exists({rbac, QStringLiteral("v1"), QStringLiteral("roles")}, QStringLiteral("default"),
            QStringLiteral("opbench-operator-leader-election")));
        // and the panel says so and offers Take back
        QVERIFY(m_panel.headlessLabel()->text().contains(u"applied 9 objects"));
        QVERIFY(m_panel.takeBackButton()->isEnabled());
        QVERIFY(!m_panel.handOffButton()->isEnabled());
    }

    void shouldScaleTheDeploymentToZeroAndLeadAgain()
    {
        // When the user takes back
        m_session->post(&Leadership::takeBack);
        // Then the Deployment runs no replica and the workbench holds the Lease again
        QTRY_VERIFY2_WITH_TIMEOUT(m_state.deployment == LeadershipState::Deployment::ScaledDown,
            qPrintable(m_state.deploymentMessage), 20000);
        qInfo("take back: %s", qPrintable(m_state.deploymentMessage));
        QVERIFY2(m_state.deploymentMessage.contains(u"scaled Deployment opbench-system/opbench-operator to 0"),
            qPrintable(m_state.deploymentMessage));
        QCOMPARE(deploymentSpec().value(u"replicas").toInt(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(m_state.role == LeadershipState::Role::Leader, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(m_state.holder, m_state.identity, 5000);
        QCOMPARE(lease().holderIdentity(), m_state.identity);
        QVERIFY(m_panel.handOffButton()->isEnabled());
    }

    void shouldAskForTheImageBeforeHandingOff()
    {
        // Given the workbench leads again (Hand off enabled)
        QTRY_VERIFY(m_panel.handOffButton()->isEnabled());
        QSignalSpy requested(&m_panel, &LeadershipPanel::clusterHandOffRequested);
        QSignalSpy embedded(&m_panel, &LeadershipPanel::handOffRequested);
        QString offered;
        // When the user clicks Hand off, the prompt offers the shipped image; they type another
        QTimer::singleShot(0, this, [&offered] {
            auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            offered = dialog->textValue();
            dialog->setTextValue(QStringLiteral("  mine/opbench-operator:dev "));
            dialog->accept();
        });
        m_panel.handOffButton()->click();
        // Then the panel asks the session for a cluster hand-off with that image, trimmed
        QCOMPARE(offered, QStringLiteral("opbench-operator:0.1.0"));
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.first().first().toString(), QStringLiteral("mine/opbench-operator:dev"));
        QCOMPARE(embedded.size(), 0);
    }

    void shouldReportAForbiddenApplyInWords()
    {
        // Given a user limited to namespace team-a
        const QString path = m_dir.filePath(QStringLiteral("narrow.yaml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("apiVersion: v1\nkind: Config\ncurrent-context: narrow\nclusters:\n"
                               "- name: c\n  cluster:\n    server: %1\n    certificate-authority-data: %2\n"
                               "users:\n- name: narrow\n  user:\n    token: narrow-token\n"
                               "contexts:\n- name: narrow\n  context: {cluster: c, user: narrow, namespace: team-a}\n")
                    .arg(m_api->url().toString(), QString::fromLatin1(m_api->caPem().toBase64()))
                    .toUtf8());
        f.close();
        auto cfg = loadConfig(path);
        QVERIFY2(cfg.ok(), cfg.ok() ? "" : qPrintable(cfg.error().message()));
        RestClient narrow(cfg.value());
        auto docs = workbench::clusterhandoff::prepare(
            workbench::clusterhandoff::shippedManifests({myapp::crdYaml()}).value(), Image, QStringLiteral("team-a"),
            myapp::leaseName());
        QVERIFY(docs.ok());
        // When it applies the manifests, Then the first cluster-scoped object fails with a 403 in words
        auto applied = QCoro::waitFor(workbench::clusterhandoff::apply(&narrow, docs.value()));
        QVERIFY(!applied.ok());
        const QString message = applied.error().message();
        qInfo("forbidden: %s", qPrintable(message));
        QCOMPARE(applied.error().code(), 403);
        QVERIFY2(
            message.startsWith(u"applied 0 of 9 objects; CustomResourceDefinition myapplications.example.com: 403: "),
            qPrintable(message));
    }

private:
    Lease lease()
    {
        const GroupVersionResource leases{
            QStringLiteral("coordination.k8s.io"), QStringLiteral("v1"), QStringLiteral("leases")};
        auto got = QCoro::waitFor(m_rest->get(leases, QStringLiteral("default"), myapp::leaseName()));
        return got.ok() ? Lease(got.value()) : Lease();
    }

    QJsonObject deploymentSpec()
    {
        auto got = QCoro::waitFor(
            m_rest->get(Deployments, QStringLiteral("opbench-system"), QStringLiteral("opbench-operator")));
        return got.ok() ? got.value().json().value(u"spec").toObject() : QJsonObject();
    }

    bool exists(const GroupVersionResource &gvr, const QString &ns, const QString &name)
    {
        return QCoro::waitFor(m_rest->get(gvr, ns, name)).ok();
    }

    QTemporaryDir m_dir;
    std::unique_ptr<testing::TestApiServer> m_api;
    std::unique_ptr<EngineSession> m_session;
    std::unique_ptr<RestClient> m_rest;
    LeadershipState m_state;
    LeadershipPanel m_panel;
};

QTEST_MAIN(tst_ClusterHandOff)
#include "tst_clusterhandoff.moc"
