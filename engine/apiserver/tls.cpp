// SPDX-License-Identifier: Apache-2.0
#include "engine/apiserver/tls.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSslCertificate>
#include <QSslKey>
#include <QTemporaryDir>

namespace opbench::apiserver {

namespace {

Expected<void> runOpenssl(const QStringList &args, const QString &step)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(QStringLiteral("openssl"), args);
    if (!p.waitForStarted(10000))
        return Status::internalError(
            QStringLiteral("cannot run openssl (%1): %2; install the openssl package").arg(step, p.errorString()));
    p.waitForFinished(30000);
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        return Status::internalError(QStringLiteral("openssl failed while %1: %2")
                                         .arg(step, QString::fromLocal8Bit(p.readAllStandardError()).trimmed()));
    }
    return {};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

Expected<TlsMaterial> TlsMaterial::generate()
{
    QTemporaryDir dir;
    if (!dir.isValid())
        return Status::internalError(QStringLiteral("cannot create a temporary directory for the TLS keys"));
    const QString d = dir.path() + u'/';
    const QStringList ec{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
        QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    auto ok = runOpenssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ec
            + QStringList{QStringLiteral("-days"), QStringLiteral("3650"), QStringLiteral("-subj"),
                QStringLiteral("/CN=opbench-ca"), QStringLiteral("-addext"),
                QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
                QStringLiteral("keyUsage=critical,keyCertSign,cRLSign,digitalSignature"), QStringLiteral("-keyout"),
                d + QStringLiteral("ca.key"), QStringLiteral("-out"), d + QStringLiteral("ca.crt")},
        QStringLiteral("creating the CA"));
    if (!ok)
        return ok.error();
    ok = runOpenssl(QStringList{QStringLiteral("req")} + ec
            + QStringList{QStringLiteral("-subj"), QStringLiteral("/CN=localhost"), QStringLiteral("-keyout"),
                d + QStringLiteral("server.key"), QStringLiteral("-out"), d + QStringLiteral("server.csr")},
        QStringLiteral("creating the serving key"));
    if (!ok)
        return ok.error();
    QFile ext(d + QStringLiteral("ext.cnf"));
    if (!ext.open(QIODevice::WriteOnly))
        return Status::internalError(QStringLiteral("cannot write %1").arg(ext.fileName()));
    ext.write("subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
              "keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
    ext.close();
    ok = runOpenssl(
        {QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"), d + QStringLiteral("server.csr"),
            QStringLiteral("-CA"), d + QStringLiteral("ca.crt"), QStringLiteral("-CAkey"), d + QStringLiteral("ca.key"),
            QStringLiteral("-CAcreateserial"), QStringLiteral("-days"), QStringLiteral("3650"),
            QStringLiteral("-extfile"), ext.fileName(), QStringLiteral("-out"), d + QStringLiteral("server.crt")},
        QStringLiteral("signing the serving certificate"));
    if (!ok)
        return ok.error();
    TlsMaterial m{readAll(d + QStringLiteral("ca.crt")), readAll(d + QStringLiteral("ca.key")),
        readAll(d + QStringLiteral("server.crt")), readAll(d + QStringLiteral("server.key"))};
    if (m.isEmpty() || m.caCert.isEmpty())
        return Status::internalError(QStringLiteral("openssl produced no certificate files"));
    return m;
}

Expected<QSslConfiguration> TlsMaterial::serverConfiguration() const
{
    const QSslCertificate cert(serverCert, QSsl::Pem);
    const QSslCertificate ca(caCert, QSsl::Pem);
    QSslKey key(serverKey, QSsl::Ec, QSsl::Pem);
    if (key.isNull())
        key = QSslKey(serverKey, QSsl::Rsa, QSsl::Pem);
    if (cert.isNull() || key.isNull())
        return Status::internalError(QStringLiteral("the serving certificate or key cannot be loaded"));
    QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
    conf.setLocalCertificateChain({cert, ca});
    conf.setPrivateKey(key);
    conf.setPeerVerifyMode(QSslSocket::VerifyNone);
    return conf;
}

QJsonObject TlsMaterial::toJson() const
{
    return QJsonObject{{QStringLiteral("caCert"), QString::fromLatin1(caCert)},
        {QStringLiteral("caKey"), QString::fromLatin1(caKey)},
        {QStringLiteral("serverCert"), QString::fromLatin1(serverCert)},
        {QStringLiteral("serverKey"), QString::fromLatin1(serverKey)}};
}

TlsMaterial TlsMaterial::fromJson(const QJsonObject &o)
{
    return {o.value(QLatin1String("caCert")).toString().toLatin1(),
        o.value(QLatin1String("caKey")).toString().toLatin1(),
        o.value(QLatin1String("serverCert")).toString().toLatin1(),
        o.value(QLatin1String("serverKey")).toString().toLatin1()};
}

} // namespace opbench::apiserver
