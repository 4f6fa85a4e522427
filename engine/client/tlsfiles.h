// SPDX-License-Identifier: Apache-2.0
#pragma once
// Loading PEM certificates and private keys for TLS configs, with errors that name the source
// but never print key material.

#include "engine/api/expected.h"

#include <QList>
#include <QSslCertificate>
#include <QSslKey>

namespace opbench {

/// One or more PEM certificates; `source` names them in errors.
Expected<QList<QSslCertificate>> parseCertificates(const QByteArray &pem, const QString &source);
Expected<QList<QSslCertificate>> readCertificates(const QString &path);
/// A PEM private key (EC or RSA, PKCS#8 or traditional).
Expected<QSslKey> parsePrivateKey(const QByteArray &pem, const QString &source);
Expected<QSslKey> readPrivateKey(const QString &path);

} // namespace opbench
