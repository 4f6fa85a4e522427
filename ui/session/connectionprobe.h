// SPDX-License-Identifier: Apache-2.0
#pragma once
// ConnectionProbe: checks, off the UI thread, whether a kubeconfig context can run the
// workbench, and says why not in words: the configuration cannot be used, the server is
// unreachable, TLS verification failed, the credentials were rejected (401), a verb on a
// resource is forbidden (403, naming both), or the MyApplication CRD is missing (installCrd()
// then installs the copy shipped in resources/crds/).
//
//   ConnectionProbe probe;
//   connect(&probe, &ConnectionProbe::finished, this, [](const ProbeResult &r) { ... });
//   probe.probe(kubeconfigPath, context);    // empty path: KUBECONFIG / ~/.kube/config

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QThread>

namespace opbench::ui {

struct ProbeResult
{
    enum class Outcome { Ok, ConfigError, Unreachable, Tls, Unauthorized, Forbidden, CrdMissing, Failed };
    Outcome outcome = Outcome::Failed;
    QString context;
    QString server;
    QString message; ///< what happened and what to do, in words

    bool ok() const { return outcome == Outcome::Ok; }
};

class ConnectionProbe : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionProbe(QObject *parent = nullptr);
    /// Stops the probe thread (a probe in flight is abandoned).
    ~ConnectionProbe() override;

    /// Checks /version, the example.com/v1alpha1 discovery document, list on myapplications,
    /// deployments, replicasets and pods in all namespaces and get on the leader-election Lease;
    /// each request times out after 5 s. finished() follows.
    void probe(const QString &kubeconfigPath, const QString &context);
    /// Creates the MyApplication CRD (already there counts as success); crdInstalled() follows.
    void installCrd(const QString &kubeconfigPath, const QString &context);

Q_SIGNALS:
    void finished(const opbench::ui::ProbeResult &result);
    void crdInstalled(bool ok, const QString &message);

private:
    QThread m_thread;
    QObject *m_worker = nullptr; // lives on m_thread, deleted when it finishes
};

} // namespace opbench::ui

Q_DECLARE_METATYPE(opbench::ui::ProbeResult)
