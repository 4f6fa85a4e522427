// SPDX-License-Identifier: Apache-2.0
#pragma once
// TLS material of the embedded API server: a CA and a serving certificate signed by it (SANs
// 127.0.0.1, ::1, localhost; EC P-256; 10 years), generated at first start with the `openssl`
// command-line tool (Qt has no API to create keys or certificates).

#include "engine/api/expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QSslConfiguration>

namespace opbench::apiserver {

struct TlsMaterial
{
    QByteArray caCert;     // PEM
    QByteArray caKey;      // PEM
    QByteArray serverCert; // PEM
    QByteArray serverKey;  // PEM

    bool isEmpty() const { return serverCert.isEmpty() || serverKey.isEmpty(); }
    /// Generates a fresh CA and serving certificate. Errors say which openssl step failed
    /// (missing binary, non-zero exit with its stderr).
    static Expected<TlsMaterial> generate();
    /// The server side configuration (certificate chain + key). Error when the PEMs don't load.
    Expected<QSslConfiguration> serverConfiguration() const;

    QJsonObject toJson() const;
    static TlsMaterial fromJson(const QJsonObject &o);
};

} // namespace opbench::apiserver
