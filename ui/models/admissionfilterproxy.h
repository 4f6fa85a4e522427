// SPDX-License-Identifier: Apache-2.0
#pragma once
// AdmissionFilterProxy: narrows AdmissionListModel to one webhook and/or one kind (exact names;
// empty: no restriction), keeping the model's order (newest first).

#include <QSortFilterProxyModel>

namespace opbench::ui {

class AdmissionFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

    void setFilters(const QString &webhook, const QString &kind);
    [[nodiscard]] const QString &webhookFilter() const { return m_webhook; }
    [[nodiscard]] const QString &kindFilter() const { return m_kind; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_webhook;
    QString m_kind;
};

} // namespace opbench::ui
