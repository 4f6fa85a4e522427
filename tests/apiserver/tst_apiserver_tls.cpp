// SPDX-License-Identifier: Apache-2.0
// HTTPS by default: a generated CA and serving certificate (SANs 127.0.0.1, ::1, localhost) and a
// kubeconfig carrying certificate-authority-data and the token.
#include "tests/support/testhttp.h"

#include <QFile>
#include <QSslCertificate>
#include <QtTest>

using namespace opbench::testing;

class TestApiServerTls : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shouldGenerateACertificateForLoopback()
    {
        auto tls = opbench::apiserver::TlsMaterial::generate();
        QVERIFY2(tls.ok(), tls.ok() ? "" : qPrintable(tls.error().message()));
        const QSslCertificate cert(tls->serverCert, QSsl::Pem);
        const auto sans = cert.subjectAlternativeNames();
        QVERIFY(sans.values(QSsl::IpAddressEntry).contains(QStringLiteral("127.0.0.1")));
        QVERIFY(sans.values(QSsl::DnsEntry).contains(QStringLiteral("localhost")));
        QVERIFY(tls->serverConfiguration().ok());
    }

    void shouldServeHttpsWithAWorkingKubeconfig()
    {
        TestApiServer api(TestApiServer::httpsOptions());
        QVERIFY2(api.start(), qPrintable(api.errorString()));
        QCOMPARE(api.url().scheme(), QStringLiteral("https"));
        TestHttp http(api); // verifies the chain against the CA
        const HttpReply r = http.get(QStringLiteral("/api/v1/namespaces"));
        QCOMPARE(r.code, 200);
        QFile kc(api.kubeconfigPath());
        QVERIFY(kc.open(QIODevice::ReadOnly));
        const QByteArray text = kc.readAll();
        QVERIFY(text.contains("server: https://127.0.0.1:" + QByteArray::number(api.url().port())));
        QVERIFY(text.contains("certificate-authority-data: " + api.caPem().toBase64()));
        QVERIFY(text.contains("token: " + api.token().toUtf8()));
    }

    void shouldWritePlainHttpKubeconfigs()
    {
        TestApiServer api;
        QVERIFY(api.start());
        QFile kc(api.kubeconfigPath());
        QVERIFY(kc.open(QIODevice::ReadOnly));
        const QByteArray text = kc.readAll();
        QVERIFY(text.contains("server: http://127.0.0.1:"));
        QVERIFY(!text.contains("certificate-authority-data"));
        QVERIFY(text.contains("token: test-token"));
    }
};

QTEST_GUILESS_MAIN(TestApiServerTls)
#include "tst_apiserver_tls.moc"
