// SPDX-License-Identifier: Apache-2.0
#include "ui/workbenchhost.h"

#include "ui/mainwindow.h"

#include <QApplication>

namespace opbench::ui {

WorkbenchHost::WorkbenchHost(QObject *parent)
    : QObject(parent)
{ }

WorkbenchHost::~WorkbenchHost()
{
    for (const QPointer<MainWindow> &w : std::as_const(m_windows))
        delete w.data();
}

MainWindow *WorkbenchHost::open(const SessionOptions &options)
{
    // The old window goes first: its session must stop (controllers unregistered, lease
    // released) before the new one starts its operator. Closing the only window must not quit.
    if (QPointer<MainWindow> previous = m_current) {
        const bool quitOnClose = QApplication::quitOnLastWindowClosed();
        QApplication::setQuitOnLastWindowClosed(false);
        previous->close(); // saves the window state
        delete previous.data();
        QApplication::setQuitOnLastWindowClosed(quitOnClose);
    }
    auto *window = new MainWindow(options);
    window->setAttribute(Qt::WA_DeleteOnClose);
    // Queued: the old window is deleted after the signal that asked for the switch returned.
    connect(window, &MainWindow::switchRequested, this, [this](const SessionOptions &next) {
        QMetaObject::invokeMethod(
            this, [this, next] { open(next); }, Qt::QueuedConnection);
    });
    m_windows.removeAll(nullptr);
    m_windows.append(window);
    m_current = window;
    window->show();
    Q_EMIT windowOpened(window);
    return window;
}

} // namespace opbench::ui
