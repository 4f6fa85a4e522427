// SPDX-License-Identifier: Apache-2.0
#include "ui/models/currentreconcilemodel.h"

#include "ui/yamldiff.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace opbench::ui {

namespace {

bool isRead(const QString &verb) { return verb == u"get" || verb == u"list"; }

QString objectText(const GroupVersionKind &gvk, const QString &key)
{
    return key.isEmpty() ? gvk.kind : gvk.kind + u' ' + key;
}

QString sourceText(const TraceCall &c)
{
    if (!isRead(c.verb))
        return c.resourceVersion.isEmpty() ? QStringLiteral("live")
                                           : QStringLiteral("live · rv %1").arg(c.resourceVersion);
    const QString where = c.fromCache ? QStringLiteral("cache") : QStringLiteral("live");
    if (c.items >= 0)
        return QStringLiteral("%1 · %2 items").arg(where).arg(c.items);
    return c.resourceVersion.isEmpty() ? where : QStringLiteral("%1 · rv %2").arg(where, c.resourceVersion);
}

} // namespace

CurrentReconcileModel::CurrentReconcileModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void CurrentReconcileModel::apply(const CurrentReconcile &frame)
{
    const bool sameReconcile = frame.reconcileId == m_frame.reconcileId;
    const int oldRows = rowCount();
    const int newRows = int(frame.calls.size()) + (frame.halted ? 1 : 0);
    if (!sameReconcile) {
        beginResetModel();
        m_frame = frame;
        endResetModel();
        return;
    }
    if (newRows > oldRows)
        beginInsertRows({}, oldRows, newRows - 1);
    else if (newRows < oldRows) // resumed: the halted row goes until the call is recorded
        beginRemoveRows({}, newRows, oldRows - 1);
    m_frame = frame;
    if (newRows > oldRows)
        endInsertRows();
    else if (newRows < oldRows)
        endRemoveRows();
    if (const int kept = std::min(oldRows, newRows); kept > 0)
        Q_EMIT dataChanged(index(0, 0), index(kept - 1, ColumnCount - 1));
}

QString CurrentReconcileModel::headerText() const
{
    const CurrentReconcile &f = m_frame;
    if (f.reconcileId.isEmpty())
        return {};
    QString state;
    if (f.halted)
        state = tr("halted before %1 %2").arg(f.pending.verb, objectText(f.pending.gvk, f.pending.key));
    else if (f.finished)
        state = f.error.isEmpty() ? tr("finished: %1").arg(f.result) : tr("finished: %1 (%2)").arg(f.result, f.error);
    else
        state = tr("running");
    QString text
        = tr("%1 · worker %2 · %n call(s) · %3", nullptr, int(f.calls.size())).arg(f.key).arg(f.worker).arg(state);
    if (!f.cacheResourceVersion.isEmpty())
        text += tr(" · cache rv %1").arg(f.cacheResourceVersion);
    return text;
}

QString CurrentReconcileModel::causesText() const { return m_frame.causes.join(u'\n'); }

QString CurrentReconcileModel::detailText(int row, bool hideNoise) const
{
    if (row < 0 || row >= rowCount())
        return {};
    if (row == pendingRow())
        return pendingDetail(hideNoise);
    return callDetail(m_frame.calls.at(row), hideNoise);
}

QString CurrentReconcileModel::pendingDetail(bool hideNoise) const
{
    const PendingCall &p = m_frame.pending;
    const QString what = p.verb + u' ' + objectText(p.gvk, p.key);
    if (isRead(p.verb))
        return tr("# about to %1 from the %2: nothing is sent").arg(what, p.fromCache ? tr("cache") : tr("API server"));
    if (p.body.contains(QLatin1String("patch")))
        return tr("# about to %1 with the patch:\n%2").arg(what, p.body.value(QLatin1String("patch")).toString());
    if (p.verb == u"delete")
        return tr("# about to %1; the object it deletes:\n%2").arg(what, objectYaml(p.replaces.json(), hideNoise));
    if (p.replaces.isNull())
        return tr("# about to %1; the object sent (nothing cached to compare with):\n%2")
            .arg(what, objectYaml(p.body, hideNoise));
    return tr("# about to %1: the object sent against the cached object it replaces\n%2")
        .arg(what, yamlDiff(p.replaces.json(), p.body, hideNoise).join(u'\n'));
}

QString CurrentReconcileModel::callDetail(const TraceCall &c, bool hideNoise) const
{
    QString head = QStringLiteral("# %1 %2 → %3").arg(c.verb, objectText(c.gvk, c.key)).arg(c.code);
    if (!c.ok())
        return head + u' ' + c.reason + u'\n' + c.message;
    if (isRead(c.verb)) {
        if (c.items >= 0)
            return head + tr(", %n item(s)", nullptr, c.items);
        return head + tr(", the object as read:\n") + objectYaml(c.object.json(), hideNoise);
    }
    if (!c.patch.isEmpty())
        head += tr("\n# patch: %1").arg(QString::fromUtf8(c.patch));
    if (c.sent.isNull() || c.object.isNull())
        return head + u'\n' + objectYaml(c.object.json(), hideNoise);
    return head + tr(", the server's reply against the object sent\n")
        + yamlDiff(c.sent.json(), c.object.json(), hideNoise).join(u'\n');
}

int CurrentReconcileModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_frame.calls.size()) + (m_frame.halted ? 1 : 0);
}

int CurrentReconcileModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CurrentReconcileModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const bool pending = index.row() == pendingRow();
    switch (role) {
    case Qt::DisplayRole:
        return display(index.row(), index.column());
    case PendingRole:
        return pending;
    case Qt::BackgroundRole:
        return pending ? QVariant(QBrush(QColor(0xed, 0xe7, 0xf6))) : QVariant(); // violet: held at a call
    case Qt::ForegroundRole:
        if (!pending && !m_frame.calls.at(index.row()).ok() && index.column() == CodeColumn)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        return {};
    case Qt::ToolTipRole:
        return pending ? tr("Halted before this call: Step over sends it") : QVariant();
    default:
        return {};
    }
}

QVariant CurrentReconcileModel::display(int row, int column) const
{
    if (row == pendingRow()) {
        const PendingCall &p = m_frame.pending;
        switch (column) {
        case IndexColumn:
            return QStringLiteral("▶ %1").arg(p.index + 1);
        case VerbColumn:
            return p.verb;
        case ObjectColumn:
            return objectText(p.gvk, p.key);
        case CodeColumn:
            return tr("halted");
        case SourceColumn:
            return isRead(p.verb) ? (p.fromCache ? tr("cache") : tr("live")) : tr("live");
        default:
            return {};
        }
    }
    const TraceCall &c = m_frame.calls.at(row);
    switch (column) {
    case IndexColumn:
        return QString::number(row + 1);
    case VerbColumn:
        return c.verb;
    case ObjectColumn:
        return objectText(c.gvk, c.key);
    case CodeColumn:
        return c.reason.isEmpty() ? QString::number(c.code) : QStringLiteral("%1 %2").arg(c.code).arg(c.reason);
    case SourceColumn:
        return sourceText(c);
    default:
        return {};
    }
}

QVariant CurrentReconcileModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("#");
    case VerbColumn:
        return tr("Verb");
    case ObjectColumn:
        return tr("Object");
    case CodeColumn:
        return tr("Code");
    case SourceColumn:
        return tr("Read from");
    default:
        return {};
    }
}

} // namespace opbench::ui
