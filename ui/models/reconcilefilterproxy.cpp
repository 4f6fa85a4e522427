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

bool ReconcileFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_key.isEmpty() && !idx.data(ReconcileListModel::KeyRole).toString().contains(m_key, Qt::CaseInsensitive))
        return false;
    return m_result.isEmpty() || idx.data(ReconcileListModel::ResultRole).toString() == m_result;
}

} // namespace opbench::ui
