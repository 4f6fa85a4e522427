// SPDX-License-Identifier: Apache-2.0
#pragma once
// SignalHandler: controller-runtime's SetupSignalHandler. The first SIGTERM or SIGINT emits
// terminationRequested() on the event loop (self-pipe + QSocketNotifier, async-signal-safe);
// a second one exits the process at once with status 1.

#include <QObject>

class QSocketNotifier;

namespace opbench {

class SignalHandler : public QObject
{
    Q_OBJECT
public:
    /// Installs the handlers for SIGTERM and SIGINT. Only one instance may exist.
    explicit SignalHandler(QObject *parent = nullptr);
    ~SignalHandler() override;

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    void onReadable();
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace opbench
