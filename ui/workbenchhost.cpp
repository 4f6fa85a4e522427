// SPDX-License-Identifier: Apache-2.0
#include "ui/workbenchhost.h"

#include "ui/mainwindow.h"

namespace opbench::ui {

WorkbenchHost::WorkbenchHost(QObject *parent)
    : QObject(parent)
{
}

WorkbenchHost::~WorkbenchHost()
{
    for (const QPointer<MainWindow> &w : std::as_const(m_windows))
        delete w.data();
}

MainWindow *WorkbenchHost::open(const SessionOptions &options)
{
    QPointer<MainWindow> previous = m_current;
    auto *window = new MainWindow(options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    // Queued: the old window is closed after the signal that asked for the switch returned.
    connect(window, &MainWindow::switchRequested, this,
            [this](const SessionOptions &next) { QMetaObject::invokeMethod(this, [this, next] { open(next); }, Qt::QueuedConnection); });
    m_windows.removeAll(nullptr);
    m_windows.append(window);
    m_current = window;
    window->show(); // before closing the old one, so the application does not quit
    if (previous)
        previous->close();
    Q_EMIT windowOpened(window);
    return window;
}

} // namespace opbench::ui
