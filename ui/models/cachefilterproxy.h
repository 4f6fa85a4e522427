// SPDX-License-Identifier: Apache-2.0
#pragma once
// CacheFilterProxy: filters CacheTreeModel's objects by a label selector ("app=web,tier!=db",
// "env in (a,b)") or, when the text does not look like a selector, by a substring of
// namespace/name. Kind and namespace rows stay while one of their objects matches.

#include "engine/api/labelselector.h"

#include <QSortFilterProxyModel>

namespace opbench::ui {

class CacheFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit CacheFilterProxy(QObject *parent = nullptr);

    /// Sets the filter. Returns an empty string, or the selector parse error (the filter then
    /// matches nothing, so the user sees the mistake).
    QString setFilter(const QString &text);
    /// Whether `text` is read as a label selector (contains =, !, parentheses, " in " or " notin ").
    static bool looksLikeSelector(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    enum class Mode { None, Text, Selector, Invalid };
    Mode m_mode = Mode::None;
    QString m_text;
    LabelSelector m_selector;
};

} // namespace opbench::ui
