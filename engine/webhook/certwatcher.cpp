// SPDX-License-Identifier: Apache-2.0
#include "engine/webhook/certwatcher.h"

#include <QFile>
#include <QFileInfo>

namespace opbench {

namespace {

Status certError(const QString &message) { return Status(0, QString::fromLatin1(StatusReason::ConfigError), message); }

Expected<QByteArray> readPem(const QString &path, const char *what)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return certError(QStringLiteral("cannot read the webhook serving %1 %2: %3")
                             .arg(QLatin1String(what), path, f.errorString()));
    return f.readAll();
}

QSslKey parseKey(const QByteArray &pem)
{
    for (QSsl::KeyAlgorithm alg : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
        QSslKey key(pem, alg, QSsl::Pem, QSsl::PrivateKey);
        if (!key.isNull())
            return key;
    }
    return {};
}

} // namespace

CertWatcher::CertWatcher(QString certPath, QString keyPath, QObject *parent)
    : QObject(parent)
    , m_certPath(std::move(certPath))
    , m_keyPath(std::move(keyPath))
{
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &CertWatcher::onFileEvent);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &CertWatcher::onFileEvent);
}

Expected<void> CertWatcher::read()
{
    Expected<QByteArray> certPem = readPem(m_certPath, "certificate");
    if (!certPem)
        return certPem.error();
    Expected<QByteArray> keyPem = readPem(m_keyPath, "key");
    if (!keyPem)
        return keyPem.error();
    const QList<QSslCertificate> chain = QSslCertificate::fromData(*certPem, QSsl::Pem);
    if (chain.isEmpty() || chain.first().isNull())
        return certError(QStringLiteral("%1 holds no PEM certificate").arg(m_certPath));
    QSslKey key = parseKey(*keyPem);
    if (key.isNull())
        return certError(QStringLiteral("%1 holds no PEM private key (RSA, EC or DSA)").arg(m_keyPath));
    m_cert = chain.first();
    m_key = key;
    m_certPem = *certPem;
    m_keyPem = *keyPem;
    return {};
}

void CertWatcher::watch() { rearm(); }

void CertWatcher::rearm()
{
    QStringList paths{QFileInfo(m_certPath).absolutePath(), m_certPath, m_keyPath};
    if (QFileInfo(m_keyPath).absolutePath() != paths.first())
        paths << QFileInfo(m_keyPath).absolutePath();
    for (const QString &p : paths)
        if (QFileInfo::exists(p) && !m_watcher.files().contains(p) && !m_watcher.directories().contains(p))
            m_watcher.addPath(p);
}

void CertWatcher::onFileEvent()
{
    rearm(); // a rename-replace removed the file's watch
    QFile cert(m_certPath), key(m_keyPath);
    if (cert.open(QIODevice::ReadOnly) && key.open(QIODevice::ReadOnly) && cert.readAll() == m_certPem
        && key.readAll() == m_keyPem)
        return; // nothing new (an unrelated file in the folder, or a touch)
    if (Expected<void> ok = read(); !ok) {
        Q_EMIT readFailed(ok.error().message());
        return;
    }
    Q_EMIT changed();
}

} // namespace opbench
