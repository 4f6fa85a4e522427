// SPDX-License-Identifier: Apache-2.0
#include "engine/manager/signalhandler.h"

#include <QSocketNotifier>

#include <atomic>
#include <csignal>

#include <fcntl.h>
#include <unistd.h>

namespace opbench {

namespace {
int g_pipe[2] = {-1, -1};
std::atomic<int> g_count{0};

extern "C" void onSignal(int sig)
{
    if (g_count.fetch_add(1) >= 1)
        _exit(1); // second signal: exit directly
    const unsigned char b = static_cast<unsigned char>(sig);
    [[maybe_unused]] const auto n = ::write(g_pipe[1], &b, 1);
}
} // namespace

SignalHandler::SignalHandler(QObject *parent)
    : QObject(parent)
{
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    m_notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &SignalHandler::onReadable);
    struct sigaction sa = {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
}

SignalHandler::~SignalHandler()
{
    struct sigaction sa = {};
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    if (g_pipe[0] >= 0) {
        ::close(g_pipe[0]);
        ::close(g_pipe[1]);
        g_pipe[0] = g_pipe[1] = -1;
    }
}

void SignalHandler::onReadable()
{
    unsigned char b = 0;
    while (::read(g_pipe[0], &b, 1) == 1)
        Q_EMIT terminationRequested(int(b));
}

} // namespace opbench
