// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cachepanel.h"

#include "ui/models/cachefilterproxy.h"
#include "ui/models/cachetreemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>

namespace opbench::ui {

CachePanel::CachePanel(CacheTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new CacheFilterProxy(this))
    , m_filter(new QLineEdit(this))
    , m_filterError(new QLabel(this))
    , m_view(new QTreeView(this))
{
    m_proxy->setSourceModel(model);
    m_filter->setPlaceholderText(tr("Filter: app=web, tier in (backend), or text"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Cache filter"));
    m_filterError->setWordWrap(true);
    m_filterError->setStyleSheet(QStringLiteral("color: #d32f2f"));
    m_filterError->setVisible(false);
    m_view->setModel(m_proxy);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    // No ResizeToContents: with thousands of rows it measures up to 1,000 rows' text on every
    // change (the dominant UI-thread cost while a large cache syncs). A fixed, resizable width.
    m_view->header()->setSectionResizeMode(CacheTreeModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(CacheTreeModel::InfoColumn, QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->resizeSection(CacheTreeModel::InfoColumn,
                                    m_view->fontMetrics().horizontalAdvance(tr("syncing… · rv 0000000000")) + 16);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filter);
    layout->addWidget(m_filterError);
    layout->addWidget(m_view, 1);
    connect(m_filter, &QLineEdit::textChanged, this, &CachePanel::onFilterChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &CachePanel::onCurrentChanged);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &CachePanel::expandNew);
}

void CachePanel::expandNew(const QModelIndex &parent, int first, int last)
{
    // Kinds and namespaces open as they appear; objects are leaves.
    const auto type = CacheTreeModel::NodeType(parent.data(CacheTreeModel::NodeTypeRole).toInt());
    if (parent.isValid() && type != CacheTreeModel::NodeType::Kind)
        return;
    for (int row = first; row <= last; ++row)
        m_view->expand(m_proxy->index(row, 0, parent));
}

void CachePanel::onFilterChanged(const QString &text)
{
    const QString error = m_proxy->setFilter(text);
    m_filterError->setText(error);
    m_filterError->setVisible(!error.isEmpty());
    if (!text.trimmed().isEmpty())
        m_view->expandAll();
}

std::pair<QString, QString> CachePanel::selectedObject() const
{
    const QModelIndex idx = m_view->currentIndex();
    if (CacheTreeModel::NodeType(idx.data(CacheTreeModel::NodeTypeRole).toInt()) != CacheTreeModel::NodeType::Object)
        return {};
    return {idx.data(CacheTreeModel::KindRole).toString(), idx.data(CacheTreeModel::KeyRole).toString()};
}

void CachePanel::select(const QString &kind, const QString &key)
{
    const QModelIndex idx = m_proxy->mapFromSource(m_model->indexOf(kind, key));
    if (idx.isValid())
        m_view->setCurrentIndex(idx);
}

void CachePanel::onCurrentChanged()
{
    const auto [kind, key] = selectedObject();
    if (!key.isEmpty())
        Q_EMIT objectSelected(kind, key);
}

} // namespace opbench::ui
