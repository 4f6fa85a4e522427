// SPDX-License-Identifier: Apache-2.0
#include "ui/models/reconcilelistmodel.h"

#include "ui/models/causechips.h"
#include "ui/widgets/palette.h"

namespace opbench::ui {

QColor colourForResult(ReconcileTrace::Result result)
{
    switch (result) {
    case ReconcileTrace::Result::Success:
        return resultColour(ResultColour::Success);
    case ReconcileTrace::Result::RequeueAfter:
        return resultColour(ResultColour::RequeueAfter);
    case ReconcileTrace::Result::Requeue:
        return resultColour(ResultColour::RateLimited);
    case ReconcileTrace::Result::Error:
        return resultColour(ResultColour::Error);
    case ReconcileTrace::Result::TerminalError:
        return resultColour(ResultColour::TerminalError);
    }
    return {};
}

namespace {
/// The reconciled key's namespace (chips name objects in it without it).
QString namespaceOf(const ReconcileTrace &t)
{
    const QString key = t.request.toString();
    return key.contains(u'/') ? key.section(u'/', 0, 0) : QString();
}
} // namespace

QString formatDuration(Clock::Duration d)
{
    const double ms = double(std::chrono::duration_cast<std::chrono::microseconds>(d).count()) / 1000.0;
    return ms < 1000 ? QStringLiteral("%1 ms").arg(ms, 0, 'f', 1) : QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 2);
}

ReconcileListModel::ReconcileListModel(int capacity, QObject *parent)
    : QAbstractTableModel(parent)
    , m_capacity(qMax(1, capacity))
{ }

void ReconcileListModel::append(const QList<ReconcileTrace> &traces)
{
    if (traces.isEmpty())
        return;
    const int first = int(m_traces.size());
    beginInsertRows({}, first, first + int(traces.size()) - 1);
    m_traces.append(traces);
    m_total += traces.size();
    endInsertRows();
    const int excess = int(m_traces.size()) - m_capacity;
    if (excess > 0) {
        beginRemoveRows({}, 0, excess - 1);
        m_traces.remove(0, excess);
        endRemoveRows();
    }
}

void ReconcileListModel::clear()
{
    m_divergences.clear();
    m_durationNotes.clear();
    if (m_traces.isEmpty())
        return;
    beginResetModel();
    m_traces.clear();
    endResetModel();
}

void ReconcileListModel::setDivergence(const QString &id, const QString &message)
{
    m_divergences.insert(id, message);
    for (int row = int(m_traces.size()) - 1; row >= 0; --row) {
        if (m_traces.at(row).id == id) {
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
            return;
        }
    }
}

int ReconcileListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_traces.size());
}

int ReconcileListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ReconcileListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char *const names[] = {"Id", "Key", "Causes", "Result", "Duration", "Calls"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

QVariant ReconcileListModel::display(const ReconcileTrace &t, int column) const
{
    switch (column) {
    case IdColumn:
        return t.id.left(8);
    case KeyColumn:
        return t.request.toString();
    case CausesColumn:
        return causeChips(t.causes, namespaceOf(t)).join(QStringLiteral(" · "));
    case ResultColumn: {
        const QString result = t.result == ReconcileTrace::Result::RequeueAfter
            ? tr("after %1").arg(formatDuration(t.requeueAfter))
            : ReconcileTrace::resultName(t.result);
        return m_divergences.contains(t.id) ? tr("%1 \u2260 recorded").arg(result) : result;
    }
    case DurationColumn:
        return formatDuration(t.duration);
    case CallsColumn:
        return int(t.calls.size());
    default:
        return {};
    }
}

QVariant ReconcileListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReconcileTrace &t = m_traces.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return display(t, index.column());
    case Qt::ForegroundRole:
        return index.column() == ResultColumn ? QVariant(colourForResult(t.result)) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == CausesColumn)
            return causeFullText(t.causes);
        if (index.column() == DurationColumn && m_durationNotes.contains(t.id))
            return m_durationNotes.value(t.id);
        if (m_divergences.contains(t.id))
            return tr("Diverged from the recording: %1").arg(m_divergences.value(t.id));
        return t.error.isEmpty() ? t.id : t.error;
    case CauseChipsRole:
        return index.column() == CausesColumn ? QVariant(causeChips(t.causes, namespaceOf(t))) : QVariant();
    case CauseChipColoursRole:
        return index.column() == CausesColumn ? QVariant(causeChipColours(t.causes, namespaceOf(t))) : QVariant();
    case KeyRole:
        return t.request.toString();
    case ResultRole:
        return ReconcileTrace::resultName(t.result);
    case IdRole:
        return t.id;
    case DivergenceRole:
        return m_divergences.value(t.id);
    default:
        return {};
    }
}

} // namespace opbench::ui
