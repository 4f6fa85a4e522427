// SPDX-License-Identifier: Apache-2.0
#pragma once
// Runnable: something the manager starts and stops (controller-runtime's manager.Runnable plus
// LeaderElectionRunnable). Controllers are election runnables: they run only while leading.

#include "engine/api/expected.h"

#include <QString>

#include <qcoro/qcorotask.h>

namespace opbench {

class Runnable
{
public:
    virtual ~Runnable() = default;
    virtual QString name() const = 0;
    /// Starts; returns once running (an error stops the manager).
    virtual QCoro::Task<Expected<void>> start() = 0;
    /// Stops; returns once stopped.
    virtual QCoro::Task<void> stop() = 0;
    /// True (the default): run only while this replica leads.
    virtual bool needLeaderElection() const { return true; }
    /// Called for election runnables before the election (controller-runtime's WarmupRunnable):
    /// what may start on a standby replica (a controller's informers with enableWarmup). An
    /// error stops the manager. Default: nothing.
    virtual Expected<void> warmup() { return {}; }
    /// Leadership handed off (GUI): stop work but stay ready to resume(). Default: nothing.
    virtual void pause() { }
    virtual void resume() { }

protected:
    Runnable() = default;
    Runnable(const Runnable &) = default;
    Runnable &operator=(const Runnable &) = default;
};

} // namespace opbench
