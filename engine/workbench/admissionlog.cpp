// SPDX-License-Identifier: Apache-2.0
#include "engine/workbench/admissionlog.h"

#include <QTimer>

namespace opbench::workbench {

namespace {
constexpr int FlushIntervalMs = 100;
}

AdmissionLog::AdmissionLog(int capacity, QObject *parent)
    : QObject(parent)
    , m_capacity(qMax(1, capacity))
    , m_flush(new QTimer(this))
{
    m_flush->setSingleShot(true);
    m_flush->setInterval(FlushIntervalMs);
    connect(m_flush, &QTimer::timeout, this, &AdmissionLog::flush);
}

void AdmissionLog::record(const apiserver::WebhookCallRecord &record)
{
    m_snapshot.calls.append(WebhookCall{++m_snapshot.total, record});
    if (m_snapshot.calls.size() > m_capacity)
        m_snapshot.calls.remove(0, m_snapshot.calls.size() - m_capacity);
    if (!m_flush->isActive())
        m_flush->start();
}

void AdmissionLog::flush() { Q_EMIT snapshot(m_snapshot); }

} // namespace opbench::workbench
