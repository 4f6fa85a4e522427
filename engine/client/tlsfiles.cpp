// SPDX-License-Identifier: Apache-2.0
#include "engine/client/tlsfiles.h"

#include <QFile>

namespace opbench {

static Status configError(const QString &msg) { return Status::transport(StatusReason::ConfigError, msg); }

static Expected<QByteArray> readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return configError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    return f.readAll();
}

Expected<QList<QSslCertificate>> parseCertificates(const QByteArray &pem, const QString &source)
{
    const QList<QSslCertificate> certs = QSslCertificate::fromData(pem, QSsl::Pem);
    if (certs.isEmpty())
        return configError(QStringLiteral("%1 holds no PEM certificate").arg(source));
    return certs;
}

Expected<QList<QSslCertificate>> readCertificates(const QString &path)
{
    Expected<QByteArray> data = readAll(path);
    if (!data)
        return data.error();
    return parseCertificates(*data, path);
}

Expected<QSslKey> parsePrivateKey(const QByteArray &pem, const QString &source)
{
    for (QSsl::KeyAlgorithm alg : {QSsl::Ec, QSsl::Rsa, QSsl::Dsa}) {
        QSslKey key(pem, alg, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return configError(QStringLiteral("%1 holds no PEM private key (EC, RSA or DSA)").arg(source));
}

Expected<QSslKey> readPrivateKey(const QString &path)
{
    Expected<QByteArray> data = readAll(path);
    if (!data)
        return data.error();
    return parsePrivateKey(*data, path);
}

} // namespace opbench
