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
    if (r.failed())
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

void AdmissionListModel::apply(const workbench::AdmissionSnapshot &snapshot)
{
    // Drop (from the bottom) what the snapshot no longer holds.
    const quint64 oldest = snapshot.calls.isEmpty() ? snapshot.total + 1 : snapshot.calls.first().seq;
    qsizetype keep = m_rows.size();
    while (keep > 0 && m_rows.at(keep - 1).seq < oldest)
        --keep;
    if (keep < m_rows.size()) {
        beginRemoveRows({}, int(keep), int(m_rows.size() - 1));
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
    beginInsertRows({}, 0, int(added.size() - 1));
    m_rows = added + m_rows;
    endInsertRows();
}

const workbench::WebhookCall *AdmissionListModel::callAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int AdmissionListModel::rowOf(quint64 seq) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).seq == seq)
            return i;
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
    if (!r.allowed)
        return tr("denied (%1)").arg(r.code);
    if (r.kind == WebhookCallRecord::Kind::Conversion)
        return tr("converted to %1").arg(r.version);
    if (!r.patch.isEmpty())
        return r.patch.size() == 1 ? tr("patched (1 op)") : tr("patched (%1 ops)").arg(r.patch.size());
    return tr("allowed");
}

int AdmissionListModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }

int AdmissionListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant AdmissionListModel::data(const QModelIndex &index, int role) const
{
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
