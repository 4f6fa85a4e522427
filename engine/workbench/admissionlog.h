// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionLog: the Admission panel's view of the embedded API server's webhook calls. It keeps
// the last `capacity` WebhookCallRecords the server reported (ApiServer::webhookCalled, connected
// queued by the session), numbers them, and publishes the whole ring as an AdmissionSnapshot at
// most every 100 ms when it changed. Lives on the engine thread; the UI connects to snapshot()
// and never calls it.

#include "engine/apiserver/admission/webhookcallrecord.h"

#include <QList>
#include <QMetaType>
#include <QObject>

class QTimer;

namespace opbench::workbench {

/// One webhook call as published: the server's record and its number in this session (1, 2, …).
struct WebhookCall
{
    quint64 seq = 0;
    apiserver::WebhookCallRecord record;
};

/// The calls kept, oldest first, and how many were reported in all (older ones were dropped).
struct AdmissionSnapshot
{
    QList<WebhookCall> calls;
    quint64 total = 0;
};

class AdmissionLog : public QObject
{
    Q_OBJECT
public:
    static constexpr int DefaultCapacity = 500;
    explicit AdmissionLog(int capacity = DefaultCapacity, QObject *parent = nullptr);

    int capacity() const { return m_capacity; }
    AdmissionSnapshot current() const { return m_snapshot; }

public Q_SLOTS:
    /// Keeps `record` (dropping the oldest beyond the capacity); published with the next flush.
    void record(const opbench::apiserver::WebhookCallRecord &record);

Q_SIGNALS:
    void snapshot(const opbench::workbench::AdmissionSnapshot &snapshot);

private:
    void flush();

    int m_capacity;
    AdmissionSnapshot m_snapshot;
    QTimer *m_flush; // child, single shot
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::AdmissionSnapshot)
