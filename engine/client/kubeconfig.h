// SPDX-License-Identifier: Apache-2.0
#pragma once
// Kubeconfig: the kubectl configuration file(s), parsed and merged the way client-go does it,
// and resolved to a RestConfig for one context.
//
// Lookup: an explicit path (no merging) or else the KUBECONFIG list (':'-separated; missing
// files skipped; the first file to set current-context or a named cluster/user/context wins,
// entries taken whole) or else ~/.kube/config. Relative file paths (certificate-authority,
// client-certificate, client-key, tokenFile, an exec command containing '/') resolve against the
// folder of the file that names them.
//
// Errors are Status (code 0, reason ConfigError) naming the file and 1-based line; secrets
// (tokens, passwords, keys) are never part of a message.

#include "engine/api/expected.h"
#include "engine/client/execauth.h"
#include "engine/client/restconfig.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace opbench {

struct KubeconfigCluster
{
    QString name;
    QString server;
    QString certificateAuthority;        // absolute path
    QByteArray certificateAuthorityData; // PEM (already base64-decoded)
    bool insecureSkipTlsVerify = false;
    QString tlsServerName;
    QString proxyUrl;
    QString file; // the file that defined it
};

struct KubeconfigUser
{
    QString name;
    QString token;
    QString tokenFile;                // absolute path
    QString clientCertificate;        // absolute path
    QByteArray clientCertificateData; // PEM
    QString clientKey;                // absolute path
    QByteArray clientKeyData;         // PEM
    QString username;
    QString password;
    std::optional<ExecConfig> exec;
    QString authProvider; // name of an auth-provider (unsupported: an error at resolve time)
    QString file;
};

struct KubeconfigContext
{
    QString name;
    QString cluster;
    QString user;
    QString namespaceName;
    QString file;
};

class Kubeconfig
{
public:
    /// Parses one document. `file` names it in errors; relative paths resolve against `baseDir`.
    static Expected<Kubeconfig> parse(const QByteArray &yaml, const QString &file, const QString &baseDir);
    /// Reads and parses one file (an error when it cannot be read).
    static Expected<Kubeconfig> loadFile(const QString &path);
    /// Merges several files, first wins; files that do not exist are skipped.
    static Expected<Kubeconfig> loadFiles(const QStringList &paths);
    /// `explicitPath` when non-empty, else KUBECONFIG, else ~/.kube/config.
    static Expected<Kubeconfig> load(const QString &explicitPath = {});

    /// Adds what `later` defines and this one does not (client-go merge order).
    void mergeFrom(const Kubeconfig &later);

    const KubeconfigContext *context(const QString &name) const;
    const KubeconfigCluster *cluster(const QString &name) const;
    const KubeconfigUser *user(const QString &name) const;
    QStringList contextNames() const;

    /// Resolves `contextName` (current-context when empty) to a RestConfig: loads the CA and
    /// client certificate files, builds the auth provider (token, tokenFile, basic, exec).
    Expected<RestConfig> restConfig(const QString &contextName = {}, Clock *clock = nullptr) const;

    QString currentContext;
    QList<KubeconfigCluster> clusters;
    QList<KubeconfigUser> users;
    QList<KubeconfigContext> contexts;
    QStringList files; // the files merged, in order
};

} // namespace opbench
