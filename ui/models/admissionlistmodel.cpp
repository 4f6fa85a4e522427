// SPDX-License-Identifier: Apache-2.0
#include "ui/models/admissionlistmodel.h"

#include "ui/widgets/palette.h"

#include <QBrush>
#include <QSet>

namespace opbench::ui {

using apiserver::WebhookCallRecord;

namespace {

QString objectText(const WebhookCallRecord &r)
{
    const QString key = r.namespaceName.isEmpty() ? r.name : r.namespaceName + u'/' + r.name;
    const QString sub = r.subresource.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(r.subresource);
    return QStringLiteral("%1 %2%3").arg(r.objectKind.isEmpty() ? r.resource : r.objectKind, key, sub);
}

QString latencyText(std::chrono::microseconds us)
{
    if (us.count() < 1000)
        return QStringLiteral("%1 µs").arg(us.count());
    return QStringLiteral("%1 ms").arg(double(us.count()) / 1000.0, 0, 'f', us.count() < 10000 ? 1 : 0);
}

QVariant verdictColour(const WebhookCallRecord &r)
{
    if (r.failed() || (!r.allowed && r.code >= 500))
        return QBrush(resultColour(r.ignored ? ResultColour::RateLimited : ResultColour::Error));
    if (!r.allowed)
        return QBrush(resultColour(ResultColour::Error));
    if (!r.patch.isEmpty())
        return QBrush(resultColour(ResultColour::RequeueAfter));
    return QBrush(resultColour(ResultColour::Success));
}

} // namespace

AdmissionListModel::AdmissionListModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void AdmissionListModel::applyHeld(const WebhookGateState &state)
{
    bool same = state.held.size() == m_held.size();
    for (qsizetype i = 0; same && i < m_held.size(); ++i)
        same = state.held.at(i).id == m_held.at(i).id;
    if (same) { // the same requests, maybe stepped: update them in place (the selection stays)
        m_held = state.held;
        if (!m_held.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_held.size()) - 1, ColumnCount - 1));
        return;
    }
    if (!m_held.isEmpty()) {
        beginRemoveRows({}, 0, int(m_held.size()) - 1);
        m_held.clear();
        endRemoveRows();
    }
    if (!state.held.isEmpty()) {
        beginInsertRows({}, 0, int(state.held.size()) - 1);
        m_held = state.held;
        endInsertRows();
    }
}

const HeldWebhookRequest *AdmissionListModel::heldAt(int row) const
{
    return row >= 0 && row < m_held.size() ? &m_held.at(row) : nullptr;
}

QString AdmissionListModel::heldVerdict(const HeldWebhookRequest &held)
{
    switch (held.stage) {
    case HeldWebhookRequest::Stage::Held:
        return tr("held at breakpoint");
    case HeldWebhookRequest::Stage::Running:
        return tr("held: the handler runs");
    case HeldWebhookRequest::Stage::Answered:
        return tr("stepped: %1 (not sent yet)").arg(held.verdict);
    }
    return {};
}

QVariant AdmissionListModel::heldData(const HeldWebhookRequest &held, int column, int role) const
{
    const WebhookRequestInfo &i = held.info;
    switch (role) {
    case HeldRole:
        return true;
    case HeldIdRole:
        return QVariant::fromValue(held.id);
    case WebhookRole:
        return i.path;
    case KindRole:
        return i.objectKind;
    case Qt::ForegroundRole:
        if (column == ResultColumn)
            return QBrush(resultColour(held.failed ? ResultColour::Error : ResultColour::Paused));
        return {};
    case Qt::ToolTipRole:
        return column == ResultColumn ? tr("Held by %1").arg(held.reason) : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case TimeColumn:
        return tr("held");
    case WebhookColumn:
        return i.path;
    case OperationColumn:
        return i.operation;
    case ObjectColumn: {
        const QString key = i.namespaceName.isEmpty() ? i.name : i.namespaceName + u'/' + i.name;
        return QStringLiteral("%1 %2").arg(i.objectKind, key);
    }
    case ResultColumn:
        return heldVerdict(held);
    default:
        return {};
    }
}

void AdmissionListModel::apply(const workbench::AdmissionSnapshot &snapshot)
{
    const int h = int(m_held.size());
    // Drop (from the bottom) what the snapshot no longer holds.
    const quint64 oldest = snapshot.calls.isEmpty() ? snapshot.total + 1 : snapshot.calls.first().seq;
    qsizetype keep = m_rows.size();
    while (keep > 0 && m_rows.at(keep - 1).seq < oldest)
        --keep;
    if (keep < m_rows.size()) {
        beginRemoveRows({}, h + int(keep), h + int(m_rows.size() - 1));
        m_rows.resize(keep);
        endRemoveRows();
    }
    // Add the new ones on top, newest first.
    const quint64 newest = m_rows.isEmpty() ? 0 : m_rows.first().seq;
    QList<workbench::WebhookCall> added;
    for (auto it = snapshot.calls.crbegin(); it != snapshot.calls.crend() && it->seq > newest; ++it)
        added.append(*it);
    if (added.isEmpty())
        return;
    beginInsertRows({}, h, h + int(added.size() - 1));
    m_rows = added + m_rows;
    endInsertRows();
}

const workbench::WebhookCall *AdmissionListModel::callAt(int row) const
{
    row -= int(m_held.size());
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int AdmissionListModel::rowOf(quint64 seq) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).seq == seq)
            return int(m_held.size()) + i;
    return -1;
}

QStringList AdmissionListModel::webhooks() const
{
    QSet<QString> names;
    for (const workbench::WebhookCall &c : m_rows)
        names.insert(c.record.webhook);
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

QStringList AdmissionListModel::kinds() const
{
    QSet<QString> names;
    for (const workbench::WebhookCall &c : m_rows)
        names.insert(c.record.objectKind);
    QStringList out(names.begin(), names.end());
    out.sort();
    return out;
}

QString AdmissionListModel::verdict(const WebhookCallRecord &r)
{
    if (r.failed())
        return tr("failed: %1%2").arg(apiserver::describeFailure(r.failure), r.ignored ? tr(" (ignored)") : QString());
    if (!r.allowed && r.code >= 500) // the handler failed (threw, or answered a server error)
        return tr("failed: webhook error (%1)").arg(r.code);
    if (!r.allowed)
        return tr("denied (%1)").arg(r.code);
    if (r.kind == WebhookCallRecord::Kind::Conversion)
        return tr("converted to %1").arg(r.version);
    if (!r.patch.isEmpty())
        return r.patch.size() == 1 ? tr("patched (1 op)") : tr("patched (%1 ops)").arg(r.patch.size());
    return tr("allowed");
}

int AdmissionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_held.size() + m_rows.size());
}

int AdmissionListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AdmissionListModel::data(const QModelIndex &index, int role) const
{
    if (const HeldWebhookRequest *held = index.isValid() ? heldAt(index.row()) : nullptr)
        return heldData(*held, index.column(), role);
    const workbench::WebhookCall *call = index.isValid() ? callAt(index.row()) : nullptr;
    if (!call)
        return {};
    const WebhookCallRecord &r = call->record;
    if (role == SeqRole)
        return QVariant::fromValue(call->seq);
    if (role == WebhookRole)
        return r.webhook;
    if (role == KindRole)
        return r.objectKind;
    if (role == Qt::ForegroundRole && index.column() == ResultColumn)
        return verdictColour(r);
    if (role == Qt::ToolTipRole && index.column() == ResultColumn)
        return r.failed() ? r.error : r.message;
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        return r.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
    case WebhookColumn:
        return r.webhook + (r.reinvocation ? tr(" (again)") : QString());
    case OperationColumn:
        return r.dryRun ? tr("%1 (dry run)").arg(r.operation) : r.operation;
    case ObjectColumn:
        return objectText(r);
    case ResultColumn:
        return verdict(r);
    case LatencyColumn:
        return latencyText(r.latency);
    }
    return {};
}

QVariant AdmissionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case WebhookColumn:
        return tr("Webhook");
    case OperationColumn:
        return tr("Operation");
    case ObjectColumn:
        return tr("Object");
    case ResultColumn:
        return tr("Result");
    case LatencyColumn:
        return tr("Latency");
    }
    return {};
}

} // namespace opbench::ui
