// SPDX-License-Identifier: Apache-2.0
#pragma once
// WorkbenchHost: owns the workbench's main window across cluster switches. "Connect to
// cluster…" restarts the workbench against another cluster: the old window closes and is
// deleted (its session stops, releasing its lease, so the operator's controller name is free
// again), then a new MainWindow (new session, fresh models) is shown. The destructor deletes
// every window still alive, joining their threads.

#include "ui/session/enginesession.h"

#include <QList>
#include <QObject>
#include <QPointer>

namespace opbench::ui {

class MainWindow;

class WorkbenchHost : public QObject
{
    Q_OBJECT
public:
    explicit WorkbenchHost(QObject *parent = nullptr);
    ~WorkbenchHost() override;

    /// Opens and shows a window for `options`, closing the current one (if any).
    MainWindow *open(const SessionOptions &options);
    /// The window in use (null once it was closed).
    MainWindow *window() const { return m_current; }

Q_SIGNALS:
    void windowOpened(opbench::ui::MainWindow *window);

private:
    QPointer<MainWindow> m_current;
    QList<QPointer<MainWindow>> m_windows;
};

} // namespace opbench::ui
