// SPDX-License-Identifier: Apache-2.0
#pragma once
// RestConfig: everything the REST client needs to reach one API server, resolved from a
// kubeconfig context or from the in-cluster service account.

#include "engine/api/expected.h"

#include "engine/api/version.h"
#include <QList>
#include <QSslCertificate>
#include <QSslKey>
#include <QString>

#include <QUrl>

#include <chrono>
#include <memory>

namespace opbench {

class AuthProvider;
class Clock;

struct TlsConfig
{
    /// Trusted CAs. Empty = the system's trust store.
    QList<QSslCertificate> caCertificates;
    /// Where the CAs came from ("certificate-authority /path", "certificate-authority-data of
    /// cluster x"), for error messages.
    QString caSource;
    /// No verification at all (kubeconfig insecure-skip-tls-verify).
    bool insecure = false;
    /// The name the server certificate must carry, when not the URL's host (tls-server-name).
    QString serverName;
    QSslCertificate clientCertificate;
    QSslKey clientKey;
};

struct RestConfig
{
    QUrl server; // https://host:port (a path prefix is kept)
    TlsConfig tls;
    /// How requests authenticate; nullptr = anonymous. Shared by all clients of this config.
    std::shared_ptr<AuthProvider> auth;
    QString userAgent = QStringLiteral("opbench/") + version();
    /// Bound on every request (connect + response), default 30 s.
    std::chrono::milliseconds timeout{30000};
    /// Client-side rate limit: requests per second and burst. qps <= 0 disables it (the
    /// default, as controller-runtime sets it).
    double qps = 0;
    int burst = 0;
    /// The context's namespace ("default" when none is set).
    QString namespaceName = QStringLiteral("default");
    /// http://, https:// or socks5:// proxy (kubeconfig proxy-url); empty = none.
    QUrl proxyUrl;
    /// Time source for retries, rate limiting and credential expiry; nullptr = Clock::system().
    Clock *clock = nullptr;
    /// Where this config came from ("kubeconfig /p, context c", "in-cluster"), for messages.
    QString source;
};

/// Resolves the configuration the way opbench-operator looks it up: `kubeconfigPath` when
/// non-empty (no merging), else the KUBECONFIG files (merged), else in-cluster when
/// KUBERNETES_SERVICE_HOST is set (falling back to ~/.kube/config when the in-cluster files are
/// unusable and that file exists, as controller-runtime does), else ~/.kube/config.
/// `context` overrides current-context (and, when given, skips in-cluster).
/// Errors (code 0, reason ConfigError) name the file, line or missing setting.
Expected<RestConfig> loadConfig(
    const QString &kubeconfigPath = {}, const QString &context = {}, Clock *clock = nullptr);

} // namespace opbench
