// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionListModel: the Admission panel's rows, from AdmissionLog snapshots — every webhook
// call the embedded API server made, newest on top: when, which webhook, the operation, the
// object (Kind namespace/name), the verdict (allowed, patched, denied with its code, failed and
// how, ignored) and the latency. Denials are red, failures amber (red under Fail); a webhook whose
// handler failed (it threw, it answered 5xx) shows as failed, not as a denial. It keeps the
// calls of the latest snapshot only (the engine bounds them). Above them, the requests the
// workbench's webhook gate holds (WebhookGateState): "held at breakpoint" in violet, or, once
// stepped, the handler's verdict not yet sent.

#include "engine/webhook/webhookgate.h"
#include "engine/workbench/admissionlog.h"

#include <QAbstractTableModel>

namespace opbench::ui {

class AdmissionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { TimeColumn, WebhookColumn, OperationColumn, ObjectColumn, ResultColumn, LatencyColumn, ColumnCount };
    enum Roles {
        SeqRole = Qt::UserRole + 1, ///< the call's number (quint64)
        WebhookRole,                ///< the webhook's name
        KindRole,                   ///< the object's kind ("ConfigMap")
        HeldRole,                   ///< true on a held request's row (filters keep it)
        HeldIdRole                  ///< a held request's id (quint64; 0 on a call's row)
    };

    explicit AdmissionListModel(QObject *parent = nullptr);

    /// Adds the snapshot's new calls on top and drops the ones it no longer holds.
    void apply(const workbench::AdmissionSnapshot &snapshot);
    /// Shows the gate's held requests on top (replacing the ones shown before).
    void applyHeld(const opbench::WebhookGateState &state);
    /// The call shown in `row` (nullptr out of range or on a held request's row).
    const workbench::WebhookCall *callAt(int row) const;
    /// The held request shown in `row` (nullptr on a call's row).
    const HeldWebhookRequest *heldAt(int row) const;
    /// How many held requests head the list.
    int heldCount() const { return int(m_held.size()); }
    /// "held at breakpoint", or once stepped "stepped: <verdict> (not sent yet)".
    static QString heldVerdict(const HeldWebhookRequest &held);
    /// The row of call `seq`, or -1.
    int rowOf(quint64 seq) const;
    /// The distinct webhook names and kinds seen, sorted (for the filters).
    QStringList webhooks() const;
    QStringList kinds() const;

    /// "allowed", "patched (1 op)", "denied (403)", "failed: timeout", "failed: unreachable (ignored)".
    static QString verdict(const apiserver::WebhookCallRecord &record);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVariant heldData(const HeldWebhookRequest &held, int column, int role) const;

    QList<HeldWebhookRequest> m_held;     // oldest first, above the calls
    QList<workbench::WebhookCall> m_rows; // newest first
};

} // namespace opbench::ui
