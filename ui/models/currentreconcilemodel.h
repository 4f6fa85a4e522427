// SPDX-License-Identifier: Apache-2.0
#pragma once
// CurrentReconcileModel: the reconcile being stepped (the debugger's frame) as a table of its
// client calls — every call made so far (verb, object, response code, cache or live with the
// resourceVersion read) and, while halted, the call it is halted before as the last row — plus
// the texts the view shows: the header (key, worker, state), the causes, and the selected
// call's detail (the object as read, or the request as a YAML diff against the object it
// replaces), with or without the noise fields.

#include "ui/session/snapshots.h"

#include <QAbstractTableModel>

namespace opbench::ui {

class CurrentReconcileModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { IndexColumn, VerbColumn, ObjectColumn, CodeColumn, SourceColumn, ColumnCount };
    enum Roles { PendingRole = Qt::UserRole + 1 };

    explicit CurrentReconcileModel(QObject *parent = nullptr);

    /// Shows `frame` (rows are reset when another reconcile starts, appended as it advances).
    void apply(const opbench::workbench::CurrentReconcile &frame);
    const CurrentReconcile &frame() const { return m_frame; }
    /// The row of the call it is halted before (-1 when not halted).
    int pendingRow() const { return m_frame.halted ? int(m_frame.calls.size()) : -1; }

    /// "default/web · worker 1 · halted before update Deployment default/web" ("" before any).
    QString headerText() const;
    /// The causes, one line each ("" before any).
    QString causesText() const;
    /// What row `row` sent and read: a read's object as YAML; a write's request as a YAML diff
    /// against the object it replaces (halted) or its reply against what was sent (made).
    /// Lines starting "+ "/"- " are a diff. Noise fields hidden when `hideNoise`.
    QString detailText(int row, bool hideNoise) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(int row, int column) const;
    QString pendingDetail(bool hideNoise) const;
    QString callDetail(const TraceCall &call, bool hideNoise) const;

    CurrentReconcile m_frame;
};

} // namespace opbench::ui
