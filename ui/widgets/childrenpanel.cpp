// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/childrenpanel.h"

#include "ui/models/childrentreemodel.h"
#include "ui/widgets/badgedelegate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeView>
#include <QVBoxLayout>

namespace opbench::ui {

ChildrenPanel::ChildrenPanel(ChildrenTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_view(new QTreeView(this))
    , m_name(new QLineEdit(this))
    , m_image(new QLineEdit(QStringLiteral("nginx:1.25"), this))
    , m_replicas(new QSpinBox(this))
    , m_error(new QLabel(this))
{
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
    m_name->setPlaceholderText(tr("name"));
    m_replicas->setRange(0, 50); // 0 is allowed here on purpose: the server answers 422 (minimum 1)
    m_replicas->setValue(2);
    m_replicas->setPrefix(tr("replicas "));
    m_error->setStyleSheet(QStringLiteral("color: #d32f2f"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    auto *create = new QPushButton(tr("Create"), this);
    auto *remove = new QPushButton(tr("Delete selected"), this);
    remove->setToolTip(tr("Delete the selected object; the controller recreates a deleted child"));
    auto *form = new QHBoxLayout;
    form->addWidget(m_name, 1);
    form->addWidget(m_image, 2);
    form->addWidget(m_replicas);
    form->addWidget(create);
    form->addStretch(0);
    form->addWidget(remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(form);
    layout->addWidget(m_error);
    connect(remove, &QPushButton::clicked, this, &ChildrenPanel::onDelete);
    connect(create, &QPushButton::clicked, this, &ChildrenPanel::onCreate);
}

void ChildrenPanel::onDelete()
{
    const QModelIndex idx = m_view->currentIndex();
    if (!idx.isValid())
        return;
    Q_EMIT deleteRequested(
        idx.data(ChildrenTreeModel::KindRole).toString(), idx.data(ChildrenTreeModel::KeyRole).toString());
}

void ChildrenPanel::onCreate()
{
    m_error->setVisible(false);
    for (QWidget *w :
        {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_image), static_cast<QWidget *>(m_replicas)})
        w->setStyleSheet(QString());
    Q_EMIT createRequested(m_name->text().trimmed(), m_image->text().trimmed(), m_replicas->value());
}

void ChildrenPanel::showCreateError(const QString &field, const QString &message)
{
    QWidget *target = field.contains(QStringLiteral("replicas")) ? static_cast<QWidget *>(m_replicas)
        : field.contains(QStringLiteral("image"))                ? static_cast<QWidget *>(m_image)
                                                                 : static_cast<QWidget *>(m_name);
    target->setStyleSheet(QStringLiteral("border: 1px solid #d32f2f"));
    target->setToolTip(message);
    m_error->setText(message);
    m_error->setVisible(true);
}

} // namespace opbench::ui
