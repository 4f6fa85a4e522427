// SPDX-License-Identifier: Apache-2.0
#pragma once
// Test kit for the webhook suites: serving certificates made with the openssl CLI (a CA and a
// server certificate for 127.0.0.1 signed by it), and HTTPS requests that trust that CA only.

#include <QByteArray>
#include <QSslCertificate>
#include <QString>

namespace opbench::test {

/// Writes ca.crt (once per folder) and <dir>/tls.crt + tls.key for CN `commonName`, signed by
/// the CA. The pair is written to temporary files and renamed over the old ones, as Kubernetes'
/// atomic writer does. Returns false with `error` set when openssl fails.
bool writeServingCert(const QString &dir, const QString &commonName, QString *error);

struct HttpsReply
{
    int code = 0;
    QByteArray body;
    QString error; ///< a transport or TLS error
};

/// POSTs `body` to https://127.0.0.1:<port><path>, trusting only <dir>/ca.crt.
HttpsReply postHttps(const QString &certDir, quint16 port, const QString &path, const QByteArray &body,
    const QByteArray &contentType = QByteArrayLiteral("application/json"));

/// A fresh TLS handshake with 127.0.0.1:<port>: the certificate the server presents.
QSslCertificate handshakeCertificate(const QString &certDir, quint16 port, QString *error);

} // namespace opbench::test

#include "engine/webhook/webhookserver.h"

#include <QJsonArray>
#include <QJsonObject>

namespace opbench::test {

/// Options for a server on 127.0.0.1, any free port, serving the certificate in `certDir`.
WebhookServerOptions loopbackOptions(const QString &certDir, MetricsRegistry *metrics = nullptr);

/// Applies RFC 6902 add / replace / remove operations (what a mutating webhook answers) to
/// `document`; an independent reading of the RFC, for checking patches.
QJsonObject applyPatch(const QJsonObject &document, const QJsonArray &operations);

} // namespace opbench::test
