// SPDX-License-Identifier: Apache-2.0
#pragma once
// Exec credential plugins (kubeconfig `users[].user.exec`), client.authentication.k8s.io/v1 and
// v1beta1. The plugin runs with KUBERNETES_EXEC_INFO set (spec.interactive is always false:
// opbench never has a terminal for it) and prints an ExecCredential with a token or a client
// certificate/key. Credentials are cached until status.expirationTimestamp (wall clock of the
// given Clock) and dropped after a 401.

#include "engine/client/auth.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QStringList>

#include <memory>

namespace opbench {

struct ExecConfig
{
    QString apiVersion; // client.authentication.k8s.io/v1 or /v1beta1
    QString command;    // resolved against the kubeconfig folder when it contains a '/'
    QStringList args;
    QList<QPair<QString, QString>> env;
    QString installHint;
    QString interactiveMode; // Never, IfAvailable, Always ("" = IfAvailable for v1beta1)
    bool provideClusterInfo = false;
    /// Sent as spec.cluster when provideClusterInfo is set (server, certificate-authority-data,
    /// insecure-skip-tls-verify, tls-server-name, proxy-url); filled by Kubeconfig::restConfig.
    QJsonObject clusterInfo;
};

class ExecAuth final : public AuthProvider
{
public:
    /// `timeout` bounds one plugin run (default 60 s).
    explicit ExecAuth(ExecConfig config, Clock *clock = nullptr,
        std::chrono::milliseconds timeout = std::chrono::milliseconds(60000));
    QCoro::Task<Expected<Credentials>> credentials() override;
    bool invalidate() override;
    QString describe() const override;

    /// How many times the plugin ran (tests).
    int runs() const { return m_runs; }

private:
    QCoro::Task<Expected<Credentials>> run();
    Status failure(const QString &what) const;
    Expected<Credentials> parseOutput(const QByteArray &out);

    ExecConfig m_config;
    Clock *m_clock;
    std::chrono::milliseconds m_timeout;
    std::optional<Credentials> m_cached;
    std::optional<Status> m_lastFailure;
    /// Exists while a plugin run is in flight; concurrent callers wait for its destruction
    /// instead of starting the plugin again.
    std::unique_ptr<QObject> m_inflight;
    QDateTime m_expiry; // invalid = no expiry
    int m_runs = 0;
};

} // namespace opbench
