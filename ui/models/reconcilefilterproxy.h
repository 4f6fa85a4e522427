// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileFilterProxy: narrows ReconcileListModel by a key substring and an exact result name.

#include <QSortFilterProxyModel>

namespace opbench::ui {

class ReconcileFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// Empty `keyText` / `result` mean no restriction.
    void setFilters(const QString &keyText, const QString &result);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_key;
    QString m_result;
};

} // namespace opbench::ui
