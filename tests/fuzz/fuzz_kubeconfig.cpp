// SPDX-License-Identifier: Apache-2.0
// Kubeconfig loading (engine/client/kubeconfig): parse one document, merge it with itself and
// with a fixed base, and resolve every context whose cluster and user carry everything inline
// (no file paths, no exec: resolving those would read or run whatever the input names).
// Invariants: lookups find what the lists hold; merging a config into itself changes nothing;
// an error never quotes a token or password.
#include "engine/client/kubeconfig.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

using namespace opbench;

namespace {

const QByteArray kBase = "apiVersion: v1\nkind: Config\ncurrent-context: base\n"
                         "clusters:\n- name: base\n  cluster:\n    server: https://127.0.0.1:6443\n"
                         "users:\n- name: base\n  user:\n    token: base-token\n"
                         "contexts:\n- name: base\n  context:\n    cluster: base\n    user: base\n";

bool inlineOnly(const Kubeconfig &k, const KubeconfigContext &ctx)
{
    if (const KubeconfigCluster *c = k.cluster(ctx.cluster); c && !c->certificateAuthority.isEmpty())
        return false;
    if (const KubeconfigUser *u = k.user(ctx.user);
        u && (!u->tokenFile.isEmpty() || !u->clientCertificate.isEmpty() || !u->clientKey.isEmpty() || u->exec))
        return false;
    return true;
}

// A secret counts as leaked only when it could not have come from another field.
void checkNoSecret(const Kubeconfig &k, const QString &message)
{
    QString others;
    for (const auto &c : k.clusters)
        others += c.name + c.server + c.tlsServerName + c.proxyUrl + c.certificateAuthority + c.file;
    for (const auto &c : k.contexts)
        others += c.name + c.cluster + c.user + c.namespaceName;
    for (const auto &u : k.users)
        others += u.name + u.username + u.authProvider + u.tokenFile + u.clientCertificate + u.clientKey;
    others += k.currentContext;
    for (const auto &u : k.users)
        for (const QString &secret : {u.token, u.password})
            if (secret.size() >= 6 && !others.contains(secret))
                FUZZ_CHECK(!message.contains(secret), message);
}

} // namespace

OPBENCH_FUZZ_TARGET(kubeconfig)(const std::uint8_t *data, std::size_t size)
{
    const QByteArray yaml = fuzz::bytes(data, size);
    const QString file = QStringLiteral("/nonexistent/fuzz/kubeconfig");
    const Expected<Kubeconfig> parsed = Kubeconfig::parse(yaml, file, QStringLiteral("/nonexistent/fuzz"));
    if (!parsed) {
        FUZZ_CHECK(!parsed.error().message().isEmpty(), QString::fromUtf8(yaml));
        return 0;
    }
    const Kubeconfig &k = *parsed;
    FUZZ_CHECK(k.contextNames().size() == k.contexts.size(), QString::fromUtf8(yaml));
    for (const KubeconfigContext &c : k.contexts)
        FUZZ_CHECK(k.context(c.name) != nullptr, c.name);
    for (const KubeconfigCluster &c : k.clusters)
        FUZZ_CHECK(k.cluster(c.name) != nullptr, c.name);
    for (const KubeconfigUser &u : k.users)
        FUZZ_CHECK(k.user(u.name) != nullptr, u.name);

    Kubeconfig self = k;
    self.mergeFrom(k);
    FUZZ_CHECK(self.contextNames() == k.contextNames() && self.currentContext == k.currentContext
            && self.clusters.size() == k.clusters.size() && self.users.size() == k.users.size(),
        QString::fromUtf8(yaml));

    Kubeconfig merged = k;
    if (const Expected<Kubeconfig> base
        = Kubeconfig::parse(kBase, QStringLiteral("/nonexistent/base"), QStringLiteral("/nonexistent"));
        base)
        merged.mergeFrom(*base);
    FUZZ_CHECK(merged.context(QStringLiteral("base")) != nullptr, QString::fromUtf8(yaml));

    QStringList names = k.contextNames();
    names << QString(); // current-context
    for (const QString &name : names) {
        const KubeconfigContext *ctx = k.context(name.isEmpty() ? k.currentContext : name);
        if (ctx && !inlineOnly(k, *ctx))
            continue;
        const Expected<RestConfig> cfg = k.restConfig(name);
        if (!cfg)
            checkNoSecret(k, cfg.error().message());
    }
    return 0;
}
