// SPDX-License-Identifier: Apache-2.0
#include "ui/models/admissionfilterproxy.h"

#include "ui/models/admissionlistmodel.h"

namespace opbench::ui {

void AdmissionFilterProxy::setFilters(const QString &webhook, const QString &kind)
{
    if (webhook == m_webhook && kind == m_kind)
        return;
    m_webhook = webhook;
    m_kind = kind;
    invalidateFilter();
}

bool AdmissionFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (index.data(AdmissionListModel::HeldRole).toBool())
        return true; // a held request is always in sight
    if (!m_webhook.isEmpty() && index.data(AdmissionListModel::WebhookRole).toString() != m_webhook)
        return false;
    return m_kind.isEmpty() || index.data(AdmissionListModel::KindRole).toString() == m_kind;
}

} // namespace opbench::ui
