// SPDX-License-Identifier: Apache-2.0
#include "ui/models/cachefilterproxy.h"

#include "ui/models/cachetreemodel.h"

#include <QRegularExpression>

namespace opbench::ui {

CacheFilterProxy::CacheFilterProxy(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setDynamicSortFilter(true);
}

bool CacheFilterProxy::looksLikeSelector(const QString &text)
{
    static const QRegularExpression setOp(QStringLiteral("\\s(in|notin)\\s*\\("));
    return text.contains(u'=') || text.contains(u'!') || text.contains(u'(') || text.contains(setOp);
}

QString CacheFilterProxy::setFilter(const QString &text)
{
    const QString t = text.trimmed();
    QString error;
    if (t.isEmpty()) {
        m_mode = Mode::None;
    } else if (looksLikeSelector(t)) {
        auto parsed = LabelSelector::parse(t);
        if (parsed) {
            m_mode = Mode::Selector;
            m_selector = parsed.value();
        } else {
            m_mode = Mode::Invalid;
            error = parsed.error().message();
        }
    } else {
        m_mode = Mode::Text;
        m_text = t;
    }
    invalidateFilter();
    return error;
}

bool CacheFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_mode == Mode::None)
        return true;
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    const auto type = CacheTreeModel::NodeType(idx.data(CacheTreeModel::NodeTypeRole).toInt());
    if (type != CacheTreeModel::NodeType::Object)
        return false; // shown when a descendant matches (recursive filtering)
    switch (m_mode) {
    case Mode::Text:
        return idx.data(CacheTreeModel::KeyRole).toString().contains(m_text, Qt::CaseInsensitive);
    case Mode::Selector: {
        Labels labels;
        const QVariantMap m = idx.data(CacheTreeModel::LabelsRole).toMap();
        for (auto it = m.cbegin(); it != m.cend(); ++it)
            labels.insert(it.key(), it.value().toString());
        return m_selector.matches(labels);
    }
    default:
        return false;
    }
}

} // namespace opbench::ui
