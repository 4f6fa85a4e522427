// SPDX-License-Identifier: Apache-2.0
#pragma once
// CertWatcher: controller-runtime's certwatcher. Holds a serving certificate and key read from
// two PEM files and reads them again when they change: the files and their folder are watched
// (QFileSystemWatcher), so an in-place write and a rename-replace (how cert-manager and kubelet's
// atomic writer rotate a Secret's files) are both seen; after each change the watches are set
// again, since a replaced file drops its watch.

#include "engine/api/expected.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QSslCertificate>
#include <QSslKey>

namespace opbench {

class CertWatcher : public QObject
{
    Q_OBJECT
public:
    CertWatcher(QString certPath, QString keyPath, QObject *parent = nullptr);

    /// Reads both files. Errors name the file and what is wrong with it; on error the pair held
    /// so far is kept.
    Expected<void> read();
    /// Starts watching (after a successful read()).
    void watch();

    [[nodiscard]] const QSslCertificate &certificate() const { return m_cert; }
    [[nodiscard]] const QSslKey &key() const { return m_key; }
    [[nodiscard]] bool isLoaded() const { return !m_cert.isNull() && !m_key.isNull(); }

Q_SIGNALS:
    /// A new pair was read after the files changed.
    void changed();
    /// The files changed but could not be read (why, naming the file).
    void readFailed(const QString &reason);

private:
    void onFileEvent();
    void rearm();

    QString m_certPath;
    QString m_keyPath;
    QFileSystemWatcher m_watcher;
    QSslCertificate m_cert;
    QSslKey m_key;
    QByteArray m_certPem; // what was read last, to ignore events that change nothing
    QByteArray m_keyPem;
};

} // namespace opbench
