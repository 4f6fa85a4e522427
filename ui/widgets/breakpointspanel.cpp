// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/breakpointspanel.h"

#include "ui/models/breakpointlistmodel.h"
#include "ui/widgets/palette.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace opbench::ui {

BreakpointsPanel::BreakpointsPanel(BreakpointListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTableView(this))
    , m_spec(new QLineEdit(this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_status(new QLabel(this))
{
    m_view->setObjectName(QStringLiteral("breakpointList"));
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(BreakpointListModel::BreakpointColumn, QHeaderView::Stretch);
    m_spec->setObjectName(QStringLiteral("breakpointSpec"));
    m_spec->setPlaceholderText(tr("key default/web · kind MyApplication · error · before write Deployment · "
                                  "status.phase == Failed"));
    m_spec->setClearButtonEnabled(true);
    m_spec->setToolTip(tr("What to stop on, then Enter:\n"
                          "  key NS/NAME — before that object is reconciled\n"
                          "  kind KIND — before any reconcile of that kind\n"
                          "  error — after any reconcile that fails\n"
                          "  before VERB KIND — before a client call (VERB: get, list, create, update, "
                          "updateStatus, patch, patchStatus, delete, write = any write, any)\n"
                          "  PATH == VALUE or PATH != VALUE — before reconciling an object where it holds\n"
                          "  webhook PATH|WORD|any [op=CREATE] [name=NS/NAME] — hold a call to the operator's "
                          "webhooks (Admission dock)"));
    auto *addButton = new QPushButton(tr("Add"), this);
    addButton->setObjectName(QStringLiteral("addBreakpoint"));
    auto *examples = new QToolButton(this);
    examples->setText(tr("Examples"));
    examples->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(examples);
    for (const QString &e : {QStringLiteral("error"), QStringLiteral("before write Deployment"),
             QStringLiteral("before delete any"), QStringLiteral("status.phase == Failed"),
             QStringLiteral("kind MyApplication"), QStringLiteral("webhook validate op=CREATE")})
        menu->addAction(e, this, [this, e] { propose(e); });
    examples->setMenu(menu);
    m_remove->setObjectName(QStringLiteral("removeBreakpoint"));
    m_status->setObjectName(QStringLiteral("breakpointStatus"));
    m_status->setWordWrap(true);
    m_status->setText(tr("No breakpoint hit."));
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_spec, 1);
    addRow->addWidget(addButton);
    addRow->addWidget(examples);
    addRow->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(addRow);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    connect(m_spec, &QLineEdit::returnPressed, this, &BreakpointsPanel::add);
    connect(addButton, &QPushButton::clicked, this, &BreakpointsPanel::add);
    connect(m_remove, &QPushButton::clicked, this, &BreakpointsPanel::removeSelected);
    connect(model, &BreakpointListModel::enableRequested, this, &BreakpointsPanel::enableRequested);
}

void BreakpointsPanel::propose(const QString &spec)
{
    m_spec->setText(spec);
    m_spec->setFocus();
}

void BreakpointsPanel::add()
{
    const QString spec = m_spec->text().trimmed();
    if (spec.isEmpty())
        return;
    m_pendingSpec = spec;
    Q_EMIT addRequested(spec);
}

void BreakpointsPanel::removeSelected()
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid())
        Q_EMIT removeRequested(current.data(BreakpointListModel::IdRole).toInt());
}

void BreakpointsPanel::apply(const workbench::ControlState &state)
{
    m_model->apply(state);
    if (!m_pendingSpec.isEmpty()) {
        if (state.breakpointError.isEmpty())
            m_spec->clear(); // added: the list shows it
        m_pendingSpec.clear();
    }
    if (!state.breakpointError.isEmpty()) {
        m_status->setText(state.breakpointError);
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        return;
    }
    const bool stopped = state.paused && !state.lastBreak.isEmpty();
    if (!state.breakpointNote.isEmpty() && !stopped) { // added, but it cannot stop anything here
        m_status->setText(state.breakpointNote);
        m_status->setStyleSheet(QStringLiteral("color: %1;").arg(resultColour(ResultColour::RateLimited).name()));
        return;
    }
    m_status->setStyleSheet({});
    if (stopped)
        m_status->setText(tr("Stopped by breakpoint: %1").arg(state.lastBreak));
    else if (!state.heldWebhookCalls.isEmpty())
        m_status->setText(tr("Holding a webhook call: %1 (Admission dock)").arg(state.heldWebhookCalls.first()));
    else
        m_status->setText(state.breakpointList.isEmpty()
                ? tr("No breakpoints: add one above.")
                : tr("%n breakpoint(s).", nullptr, int(state.breakpointList.size())));
    if (const int row = m_model->rowOf(state.lastBreakId); row >= 0 && state.paused)
        m_view->scrollTo(m_model->index(row, 0));
}

} // namespace opbench::ui
