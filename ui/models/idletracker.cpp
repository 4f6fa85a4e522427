// SPDX-License-Identifier: Apache-2.0
#include "ui/models/idletracker.h"

namespace opbench::ui {

IdleTracker::IdleTracker(int quietSamples, QObject *parent)
    : QObject(parent)
    , m_quietSamples(std::max(1, quietSamples))
{ }

void IdleTracker::addSample(const QueueSample &sample)
{
    const bool empty = sample.depth == 0 && sample.processing == 0 && sample.waiting == 0;
    m_quiet = empty ? m_quiet + 1 : 0;
    setIdle(m_quiet >= m_quietSamples);
}

void IdleTracker::addReconciles(int count)
{
    if (count <= 0)
        return;
    m_quiet = 0;
    setIdle(false);
}

void IdleTracker::setIdle(bool idle)
{
    if (idle == m_idle)
        return;
    m_idle = idle;
    Q_EMIT idleChanged(idle);
}

} // namespace opbench::ui
