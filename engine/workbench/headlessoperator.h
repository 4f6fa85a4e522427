// SPDX-License-Identifier: Apache-2.0
#pragma once
// HeadlessOperator: runs `opbench-operator` as if it were a pod in the cluster, for the
// workbench's leadership hand-off. start() writes a service-account folder (token, ca.crt,
// namespace) to a temporary directory and starts the process with OPBENCH_SERVICEACCOUNT_DIR
// and KUBERNETES_SERVICE_HOST/PORT pointing at the API server, leader election on, the same
// lease (and --record PATH when the launch names a recording file). Its stdout/stderr lines are collected
// (takeLogLines()). stop() sends SIGTERM (the operator releases its lease and exits 0) and kills it if it is still
// there after 15 s. The destructor stops a running process (waiting up to 5 s) so no orphan outlives the window.

#include "engine/api/expected.h"

#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QUrl>

#include <memory>

class QTemporaryDir;

namespace opbench::workbench {

struct HeadlessLaunch
{
    QString program;                                   ///< path of opbench-operator
    QUrl server;                                       ///< https://host:port of the API server
    QByteArray token;                                  ///< service-account token (written to a 0600 file, never logged)
    QByteArray caPem;                                  ///< the CA that signed the server certificate
    QString namespaceName = QStringLiteral("default"); ///< the pod's namespace (the lease's)
    QString leaseName;
    QString identity;
    /// Record the run to this file (`--record`; "" = no recording). The workbench offers it when
    /// it takes control back (docs/recording.md).
    QString recordPath;
};

class HeadlessOperator : public QObject
{
    Q_OBJECT
public:
    explicit HeadlessOperator(QObject *parent = nullptr);
    ~HeadlessOperator() override;

    /// Prepares the folder and starts the process (asynchronously: started() or finished()
    /// follows). Errors: the program is missing, or the folder cannot be written.
    Expected<void> start(const HeadlessLaunch &launch);
    /// SIGTERM; SIGKILL after 15 s if it did not exit. No-op when not running.
    void stop();
    bool isRunning() const;
    bool isStopping() const { return m_stopping; }
    qint64 pid() const;
    QString identity() const { return m_identity; }
    /// The lines printed since the last call (stdout and stderr, in arrival order).
    QStringList takeLogLines();

Q_SIGNALS:
    void started();
    /// The process ended; `crashed` when killed by a signal or it failed to start (`message`
    /// says which, in words).
    void finished(int exitCode, bool crashed, const QString &message);

private:
    Expected<void> prepareServiceAccount(const HeadlessLaunch &launch);
    void readChannel(QProcess::ProcessChannel channel);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);

    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess *m_process = nullptr; // child
    QString m_identity;
    QByteArray m_partial[2]; // unfinished line per channel
    QStringList m_lines;
    bool m_stopping = false;
    bool m_reported = false;
};

} // namespace opbench::workbench
