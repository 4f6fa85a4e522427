// SPDX-License-Identifier: Apache-2.0
#include "engine/client/inclusterconfig.h"

#include "engine/client/auth.h"
#include "engine/client/tlsfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace opbench {

QString serviceAccountDir()
{
    const QString dir = qEnvironmentVariable("OPBENCH_SERVICEACCOUNT_DIR");
    return dir.isEmpty() ? QStringLiteral("/var/run/secrets/kubernetes.io/serviceaccount") : dir;
}

Expected<RestConfig> loadInClusterConfig(Clock *clock, std::chrono::seconds tokenPeriod)
{
    const QString host = qEnvironmentVariable("KUBERNETES_SERVICE_HOST");
    const QString port = qEnvironmentVariable("KUBERNETES_SERVICE_PORT");
    QStringList missing;
    if (host.isEmpty())
        missing << QStringLiteral("KUBERNETES_SERVICE_HOST");
    if (port.isEmpty())
        missing << QStringLiteral("KUBERNETES_SERVICE_PORT");
    if (!missing.isEmpty())
        return Status::transport(StatusReason::ConfigError,
            QStringLiteral("not running in a cluster: %1 must be set").arg(missing.join(QStringLiteral(" and "))));
    RestConfig cfg;
    cfg.clock = clock;
    // An IPv6 host needs brackets; QUrl::setHost adds them.
    cfg.server.setScheme(QStringLiteral("https"));
    cfg.server.setHost(host);
    bool ok = false;
    cfg.server.setPort(port.toInt(&ok));
    if (!ok)
        return Status::transport(
            StatusReason::ConfigError, QStringLiteral("KUBERNETES_SERVICE_PORT \"%1\" is not a port number").arg(port));

    const QDir dir(serviceAccountDir());
    const QString tokenPath = dir.filePath(QStringLiteral("token"));
    auto auth = std::make_shared<TokenFileAuth>(tokenPath, clock, tokenPeriod);
    if (Expected<QByteArray> t = auth->token(); !t)
        return t.error();
    cfg.auth = auth;

    const QString caPath = dir.filePath(QStringLiteral("ca.crt"));
    Expected<QList<QSslCertificate>> ca = readCertificates(caPath);
    if (!ca)
        return ca.error();
    cfg.tls.caCertificates = *ca;
    cfg.tls.caSource = QStringLiteral("service-account CA %1").arg(caPath);

    QFile ns(dir.filePath(QStringLiteral("namespace")));
    if (ns.open(QIODevice::ReadOnly)) {
        const QString n = QString::fromUtf8(ns.readAll()).trimmed();
        if (!n.isEmpty())
            cfg.namespaceName = n;
    }
    cfg.source = QStringLiteral("in-cluster (service account %1)").arg(dir.path());
    return cfg;
}

} // namespace opbench
