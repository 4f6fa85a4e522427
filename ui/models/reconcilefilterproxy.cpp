// SPDX-License-Identifier: Apache-2.0
#include "ui/models/reconcilefilterproxy.h"

#include "ui/models/reconcilelistmodel.h"

namespace opbench::ui {

void ReconcileFilterProxy::setFilters(const QString &keyText, const QString &result)
{
    m_key = keyText.trimmed();
    m_result = result;
    invalidateFilter();
}

void ReconcileFilterProxy::setNewestFirst(bool on)
{
    m_newestFirst = on;
    if (on)
        sort(0, Qt::DescendingOrder);
    else
        sort(-1); // the source's order
}

bool ReconcileFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    return left.row() < right.row(); // rows are appended in finishing order
}

bool ReconcileFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_key.isEmpty() && !idx.data(ReconcileListModel::KeyRole).toString().contains(m_key, Qt::CaseInsensitive))
        return false;
    return m_result.isEmpty() || idx.data(ReconcileListModel::ResultRole).toString() == m_result;
}

} // namespace opbench::ui
