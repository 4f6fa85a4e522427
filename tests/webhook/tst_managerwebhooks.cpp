// SPDX-License-Identifier: Apache-2.0
// The manager runs the webhook server: WebhookBuilder(manager) registers on it, start() serves it
// over HTTPS (ManagerOptions: webhookPort, webhookCertDir, webhookHost), /readyz includes its
// started check ("webhook"), and stop() closes it.
#include "engine/manager/manager.h"
#include "engine/webhook/webhookbuilder.h"
#include "tests/webhook/webhookkinds.h"
#include "tests/webhook/webhooktestkit.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <qcoro/qcorotask.h>

using namespace opbench;
using opbench::test::GuestbookV2;

namespace {

class RefuseAll : public CustomValidator<GuestbookV2>
{
public:
    ValidationResult validateCreate(const GuestbookV2 &) override
    {
        return ValidationResult::denied(QStringLiteral("no"));
    }
    ValidationResult validateUpdate(const GuestbookV2 &, const GuestbookV2 &) override
    {
        return ValidationResult::allowed();
    }
    ValidationResult validateDelete(const GuestbookV2 &) override { return ValidationResult::allowed(); }
};

int getCode(quint16 port, const QString &path)
{
    QNetworkAccessManager nam;
    QNetworkReply *r = nam.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port).arg(path))));
    QSignalSpy done(r, &QNetworkReply::finished);
    if (!r->isFinished())
        done.wait(15000);
    const int code = r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r->deleteLater();
    return code;
}

} // namespace

class TestManagerWebhooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void managerServesRegisteredWebhooks()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY2(test::writeServingCert(dir.path(), QStringLiteral("manager"), &error), qPrintable(error));
        ManagerOptions mo;
        mo.restConfig.server = QUrl(QStringLiteral("http://127.0.0.1:9")); // never contacted
        mo.healthProbeBindAddress = QStringLiteral("127.0.0.1:0");
        mo.webhookPort = 0;
        mo.webhookHost = QStringLiteral("127.0.0.1");
        mo.webhookCertDir = dir.path();
        auto created = Manager::create(mo);
        QVERIFY(created.ok());
        std::unique_ptr<Manager> mgr = std::move(created.value());
        QVERIFY(
            WebhookBuilder(mgr.get()).forKind<GuestbookV2>().withValidator(std::make_shared<RefuseAll>()).complete());
        QVERIFY(!mgr->webhookServer()->startedChecker()()); // readiness fails until serving
        const Expected<void> started = QCoro::waitFor(mgr->start());
        QVERIFY2(started, qPrintable(started ? QString() : started.error().message()));
        QVERIFY(mgr->webhookServer()->isServing());
        QCOMPARE(getCode(mgr->healthProbePort(), QStringLiteral("/readyz/webhook")), 200);
        QCOMPARE(getCode(mgr->healthProbePort(), QStringLiteral("/readyz")), 200);
        const auto r = test::postHttps(dir.path(), mgr->webhookServer()->port(),
            QStringLiteral("/validate-webapp-example-org-v2-guestbook"), QByteArray("{}"));
        QCOMPARE(r.code, 200);
        QVERIFY2(r.body.contains("\"code\":400"), r.body.constData()); // an AdmissionReview answer
        QSignalSpy finished(mgr.get(), &Manager::finished);
        mgr->stop();
        QVERIFY(finished.count() > 0 || finished.wait(20000));
        QVERIFY(!mgr->webhookServer()->isServing());
    }
};

QTEST_GUILESS_MAIN(TestManagerWebhooks)
#include "tst_managerwebhooks.moc"
