// SPDX-License-Identifier: Apache-2.0
#include "bench/serverthread.h"

#include <ctime>

namespace opbench::bench {

double threadCpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

ServerThread::ServerThread(apiserver::ApiServerOptions options)
    : m_options(std::move(options))
{ }

ServerThread::~ServerThread() { stop(); }

Expected<void> ServerThread::start(const QString &kubeconfigPath)
{
    m_context = std::make_unique<QObject>();
    m_server = std::make_unique<apiserver::ApiServer>(m_options);
    m_context->moveToThread(&m_thread);
    m_server->moveToThread(&m_thread);
    m_thread.start();
    Expected<void> result;
    onThread([&] {
        result = m_server->start();
        if (result)
            result = m_server->writeKubeconfig(kubeconfigPath);
        m_cpuAtStart = threadCpuSeconds();
    });
    return result;
}

void ServerThread::stop()
{
    if (!m_context)
        return;
    onThread([this] { m_server.reset(); });
    m_thread.quit();
    m_thread.wait();
    m_context.reset();
}

double ServerThread::cpuSeconds()
{
    double s = 0;
    onThread([&] { s = threadCpuSeconds() - m_cpuAtStart; });
    return s;
}

quint64 ServerThread::requests()
{
    quint64 n = 0;
    onThread([&] { n = m_server->requestCount(); });
    return n;
}

void ServerThread::onThread(const std::function<void()> &fn)
{
    QMetaObject::invokeMethod(m_context.get(), fn, Qt::BlockingQueuedConnection);
}

} // namespace opbench::bench
