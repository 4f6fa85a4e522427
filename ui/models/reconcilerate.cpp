// SPDX-License-Identifier: Apache-2.0
#include "ui/models/reconcilerate.h"

namespace opbench::ui {

void ReconcileRate::add(int count, qint64 nowMs)
{
    if (count > 0)
        m_batches.append({nowMs, count});
}

double ReconcileRate::perSecond(qint64 nowMs)
{
    while (!m_batches.isEmpty() && m_batches.first().atMs <= nowMs - m_windowMs)
        m_batches.removeFirst();
    qint64 n = 0;
    for (const Batch &b : std::as_const(m_batches))
        n += b.count;
    return double(n) * 1000.0 / double(m_windowMs);
}

} // namespace opbench::ui
