// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "engine/api/expected.h"
#include "engine/apiserver/apiserver.h"

#include <QThread>

#include <functional>
#include <memory>

namespace opbench::bench {

/// CPU time used so far by the calling thread, in seconds.
double threadCpuSeconds();

/// The embedded API server on a thread of its own (created, started and destroyed there), so the
/// benchmark's client or operator thread stays free.
class ServerThread
{
public:
    explicit ServerThread(apiserver::ApiServerOptions options);
    ~ServerThread();

    /// Starts the server and writes a kubeconfig for it to `kubeconfigPath`.
    Expected<void> start(const QString &kubeconfigPath);
    void stop();
    /// CPU used by the server thread since start().
    double cpuSeconds();
    /// Requests the server has answered.
    quint64 requests();

private:
    void onThread(const std::function<void()> &fn);

    apiserver::ApiServerOptions m_options;
    QThread m_thread;
    std::unique_ptr<QObject> m_context;             // lives on m_thread
    std::unique_ptr<apiserver::ApiServer> m_server; // lives on m_thread
    double m_cpuAtStart = 0;
};

} // namespace opbench::bench
