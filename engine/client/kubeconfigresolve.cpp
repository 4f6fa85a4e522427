// SPDX-License-Identifier: Apache-2.0
// Kubeconfig → RestConfig: certificate loading and the choice of auth provider.
#include "engine/client/auth.h"
#include "engine/client/execauth.h"
#include "engine/client/kubeconfig.h"
#include "engine/client/tlsfiles.h"

namespace opbench {

namespace {

Status configError(const QString &msg) { return Status::transport(StatusReason::ConfigError, msg); }

Expected<TlsConfig> clusterTls(const KubeconfigCluster &c)
{
    TlsConfig tls;
    tls.insecure = c.insecureSkipTlsVerify;
    tls.serverName = c.tlsServerName;
    const bool hasCa = !c.certificateAuthority.isEmpty() || !c.certificateAuthorityData.isEmpty();
    if (tls.insecure && hasCa)
        return configError(QStringLiteral("cluster \"%1\" (%2): specifying a root certificate authority with "
                                          "insecure-skip-tls-verify is not allowed; remove one of them")
                               .arg(c.name, c.file));
    if (!c.certificateAuthorityData.isEmpty()) {
        tls.caSource = QStringLiteral("certificate-authority-data of cluster \"%1\"").arg(c.name);
        Expected<QList<QSslCertificate>> certs = parseCertificates(c.certificateAuthorityData, tls.caSource);
        if (!certs)
            return certs.error();
        tls.caCertificates = *certs;
    } else if (!c.certificateAuthority.isEmpty()) {
        tls.caSource = QStringLiteral("certificate-authority %1").arg(c.certificateAuthority);
        Expected<QList<QSslCertificate>> certs = readCertificates(c.certificateAuthority);
        if (!certs)
            return certs.error();
        tls.caCertificates = *certs;
    }
    return tls;
}

Expected<void> userCertificate(const KubeconfigUser &u, TlsConfig &tls)
{
    const QString what = QStringLiteral("user \"%1\"").arg(u.name);
    const bool hasCert = !u.clientCertificate.isEmpty() || !u.clientCertificateData.isEmpty();
    const bool hasKey = !u.clientKey.isEmpty() || !u.clientKeyData.isEmpty();
    if (!hasCert && !hasKey)
        return {};
    if (hasCert != hasKey)
        return configError(QStringLiteral("%1 (%2): a client certificate needs both client-certificate(-data) and "
                                          "client-key(-data)")
                               .arg(what, u.file));
    Expected<QList<QSslCertificate>> certs = u.clientCertificateData.isEmpty()
        ? readCertificates(u.clientCertificate)
        : parseCertificates(u.clientCertificateData, what + QStringLiteral(" client-certificate-data"));
    if (!certs)
        return certs.error();
    Expected<QSslKey> key = u.clientKeyData.isEmpty()
        ? readPrivateKey(u.clientKey)
        : parsePrivateKey(u.clientKeyData, what + QStringLiteral(" client-key-data"));
    if (!key)
        return key.error();
    tls.clientCertificate = certs->first();
    tls.clientKey = *key;
    return {};
}

QJsonObject clusterInfo(const KubeconfigCluster &c, const TlsConfig &tls)
{
    QJsonObject o{{QStringLiteral("server"), c.server}};
    QByteArray pem = c.certificateAuthorityData;
    if (pem.isEmpty()) {
        for (const QSslCertificate &cert : tls.caCertificates)
            pem += cert.toPem();
    }
    if (!pem.isEmpty())
        o.insert(QStringLiteral("certificate-authority-data"), QString::fromLatin1(pem.toBase64()));
    if (c.insecureSkipTlsVerify)
        o.insert(QStringLiteral("insecure-skip-tls-verify"), true);
    if (!c.tlsServerName.isEmpty())
        o.insert(QStringLiteral("tls-server-name"), c.tlsServerName);
    if (!c.proxyUrl.isEmpty())
        o.insert(QStringLiteral("proxy-url"), c.proxyUrl);
    return o;
}

Expected<std::shared_ptr<AuthProvider>> userAuth(const KubeconfigUser &u, const QJsonObject &cluster, Clock *clock)
{
    const QString what = QStringLiteral("user \"%1\" (%2)").arg(u.name, u.file);
    if (!u.authProvider.isEmpty())
        return configError(QStringLiteral("%1: auth-provider \"%2\" is not supported; use an exec credential plugin "
                                          "(users[].user.exec) instead")
                               .arg(what, u.authProvider));
    const bool bearer = !u.token.isEmpty() || !u.tokenFile.isEmpty();
    const bool basic = !u.username.isEmpty() || !u.password.isEmpty();
    if (bearer && basic)
        return configError(
            QStringLiteral("%1: username/password or a bearer token may be set, but not both").arg(what));
    if (u.exec && (bearer || basic))
        return configError(
            QStringLiteral("%1: an exec plugin cannot be combined with a token or username/password").arg(what));
    if (!u.token.isEmpty())
        return std::shared_ptr<AuthProvider>(std::make_shared<StaticTokenAuth>(u.token.toUtf8()));
    if (!u.tokenFile.isEmpty())
        return std::shared_ptr<AuthProvider>(std::make_shared<TokenFileAuth>(u.tokenFile, clock));
    if (basic)
        return std::shared_ptr<AuthProvider>(std::make_shared<BasicAuth>(u.username, u.password));
    if (u.exec) {
        ExecConfig e = *u.exec;
        e.clusterInfo = cluster;
        return std::shared_ptr<AuthProvider>(std::make_shared<ExecAuth>(e, clock));
    }
    return std::shared_ptr<AuthProvider>();
}

Expected<RestConfig> clusterConfig(const KubeconfigCluster &cl)
{
    if (cl.server.isEmpty())
        return configError(QStringLiteral("cluster \"%1\" (%2) has no server").arg(cl.name, cl.file));
    RestConfig cfg;
    cfg.server = QUrl(cl.server);
    if (!cfg.server.isValid()
        || (cfg.server.scheme() != QLatin1String("https") && cfg.server.scheme() != QLatin1String("http")))
        return configError(QStringLiteral("cluster \"%1\" (%2): server \"%3\" is not an http(s) URL")
                               .arg(cl.name, cl.file, cl.server));
    if (!cl.proxyUrl.isEmpty())
        cfg.proxyUrl = QUrl(cl.proxyUrl);
    Expected<TlsConfig> tls = clusterTls(cl);
    if (!tls)
        return tls.error();
    cfg.tls = *tls;
    return cfg;
}

} // namespace

Expected<RestConfig> Kubeconfig::restConfig(const QString &contextName, Clock *clock) const
{
    const QString where
        = QStringLiteral("kubeconfig %1").arg(files.isEmpty() ? QStringLiteral("(none)") : files.join(u':'));
    const QString available = contexts.isEmpty() ? QStringLiteral("(none)") : contextNames().join(QStringLiteral(", "));
    const QString name = contextName.isEmpty() ? currentContext : contextName;
    if (name.isEmpty())
        return configError(QStringLiteral("%1 has no current-context and no context was given; available contexts: %2")
                               .arg(where, available));
    const KubeconfigContext *ctx = context(name);
    if (!ctx)
        return configError(
            QStringLiteral("context \"%1\" not found in %2; available contexts: %3").arg(name, where, available));
    const KubeconfigCluster *cl = cluster(ctx->cluster);
    if (!cl)
        return configError(QStringLiteral("context \"%1\" (%2) refers to cluster \"%3\", which is not defined")
                               .arg(name, ctx->file, ctx->cluster));
    Expected<RestConfig> base = clusterConfig(*cl);
    if (!base)
        return base.error();
    RestConfig cfg = std::move(*base);
    cfg.clock = clock;
    cfg.namespaceName = ctx->namespaceName.isEmpty() ? QStringLiteral("default") : ctx->namespaceName;
    cfg.source = QStringLiteral("%1, context \"%2\"").arg(where, name);
    if (ctx->user.isEmpty())
        return cfg;
    const KubeconfigUser *u = user(ctx->user);
    if (!u)
        return configError(QStringLiteral("context \"%1\" (%2) refers to user \"%3\", which is not defined")
                               .arg(name, ctx->file, ctx->user));
    if (Expected<void> r = userCertificate(*u, cfg.tls); !r)
        return r.error();
    Expected<std::shared_ptr<AuthProvider>> auth = userAuth(*u, clusterInfo(*cl, cfg.tls), clock);
    if (!auth)
        return auth.error();
    cfg.auth = *auth;
    return cfg;
}

} // namespace opbench
