// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/childrenpanel.h"

#include "ui/models/childrentreemodel.h"
#include "ui/widgets/badgedelegate.h"
#include "ui/widgets/createformwidget.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace opbench::ui {

ChildrenPanel::ChildrenPanel(ChildrenTreeModel *model, workbench::CreateForm form, QWidget *parent)
    : QWidget(parent)
    , m_view(new QTreeView(this))
    , m_form(new CreateFormWidget(std::move(form), this))
{
    // Connected before the view's selection model exists, so this runs first: when the current
    // object's row goes (it was deleted), nothing stays selected — Qt would move the selection to
    // the owner, and the next "Delete selected" would delete the app.
    connect(model, &QAbstractItemModel::rowsAboutToBeRemoved, m_view,
        [this](const QModelIndex &removedFrom, int first, int last) {
            for (QModelIndex at = m_view->currentIndex(); at.isValid(); at = at.parent()) {
                if (at.parent() == removedFrom && at.row() >= first && at.row() <= last) {
                    m_view->selectionModel()->clear();
                    return;
                }
            }
        });
    m_view->setModel(model);
    m_view->setItemDelegateForColumn(ChildrenTreeModel::StatusColumn, new BadgeDelegate(m_view));
    m_view->setUniformRowHeights(true);
    m_view->header()->setSectionResizeMode(ChildrenTreeModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ChildrenTreeModel::StatusColumn, QHeaderView::ResizeToContents);
    connect(
        model, &QAbstractItemModel::rowsInserted, m_view, [this, model](const QModelIndex &at, int first, int last) {
            m_view->expand(at);
            for (int row = first; row <= last; ++row)
                m_view->expandRecursively(model->index(row, 0, at));
        });
    auto *remove = new QPushButton(tr("Delete selected"), this);
    remove->setObjectName(QStringLiteral("deleteButton"));
    remove->setToolTip(tr("Delete the selected object; the controller recreates a deleted child"));
    auto *actions = new QHBoxLayout;
    actions->addStretch(1);
    actions->addWidget(remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(actions);
    layout->addWidget(m_form);
    connect(remove, &QPushButton::clicked, this, &ChildrenPanel::onDelete);
    connect(m_form, &CreateFormWidget::createRequested, this, &ChildrenPanel::createRequested);
}

void ChildrenPanel::onDelete()
{
    const QModelIndex idx = m_view->currentIndex();
    if (!idx.isValid()) {
        Q_EMIT deleteRejected(tr("Select an object in the Children tree first."));
        return;
    }
    Q_EMIT deleteRequested(
        idx.data(ChildrenTreeModel::KindRole).toString(), idx.data(ChildrenTreeModel::KeyRole).toString());
}

void ChildrenPanel::showCreateError(const QString &field, const QString &message) { m_form->showError(field, message); }

} // namespace opbench::ui
