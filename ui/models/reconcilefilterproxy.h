// SPDX-License-Identifier: Apache-2.0
#pragma once
// ReconcileFilterProxy: narrows ReconcileListModel by a key substring and an exact result name,
// and orders it newest first (the model appends, oldest first) so the reconcile just finished is
// the top row and visible without scrolling.

#include <QSortFilterProxyModel>

namespace opbench::ui {

class ReconcileFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    /// Empty `keyText` / `result` mean no restriction.
    void setFilters(const QString &keyText, const QString &result);
    /// Newest first (the default) or in the model's order, oldest first.
    void setNewestFirst(bool on);
    [[nodiscard]] bool newestFirst() const { return m_newestFirst; }
    /// The key substring filtered on ("" for all).
    [[nodiscard]] const QString &keyFilter() const { return m_key; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

private:
    QString m_key;
    QString m_result;
    bool m_newestFirst = false;
};

} // namespace opbench::ui
