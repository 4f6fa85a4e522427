// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/currentreconcileview.h"

#include "ui/models/currentreconcilemodel.h"
#include "ui/yamlhighlighter.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace opbench::ui {

namespace {

QPushButton *makeButton(const QString &name, const QString &text, const QString &tip, QKeySequence key, QWidget *parent)
{
    auto *b = new QPushButton(text, parent);
    b->setObjectName(name);
    b->setShortcut(key);
    b->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    b->setEnabled(false);
    return b;
}

} // namespace

CurrentReconcileView::CurrentReconcileView(CurrentReconcileModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_breakpoint(new QLabel(this))
    , m_header(new QLabel(this))
    , m_causes(new QLabel(this))
    , m_calls(new QTableView(this))
    , m_detail(new QPlainTextEdit(this))
    , m_showNoise(new QCheckBox(tr("Show noise fields"), this))
    , m_stepOver(makeButton(QStringLiteral("stepOverButton"), tr("Step over call"),
          tr("Send the call it is halted before; halt before the next one"), {}, this))
    , m_stepOut(makeButton(QStringLiteral("stepOutButton"), tr("Step out"),
          tr("Finish this reconcile without further stops; stay paused"), QKeySequence(Qt::SHIFT | Qt::Key_F11), this))
    , m_continue(makeButton(QStringLiteral("continueButton"), tr("Continue"),
          tr("Finish this reconcile and run normally again"), {}, this))
    , m_runTo(makeButton(QStringLiteral("runToKeyButton"), tr("Run to next of this key"),
          tr("Run normally until this key is reconciled again, then step into that reconcile"),
          QKeySequence(Qt::CTRL | Qt::Key_F10), this))
{
    m_breakpoint->setObjectName(QStringLiteral("frameBreakpoint"));
    m_breakpoint->setWordWrap(true);
    m_breakpoint->setStyleSheet(QStringLiteral("QLabel { background: #fdecea; color: #b71c1c; border: 1px solid "
                                               "#e57373; border-radius: 3px; padding: 3px; }"));
    m_breakpoint->setVisible(false);
    m_header->setObjectName(QStringLiteral("frameHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_causes->setObjectName(QStringLiteral("frameCauses"));
    m_causes->setWordWrap(true);
    m_causes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_calls->setObjectName(QStringLiteral("callsView"));
    m_calls->setModel(model);
    m_calls->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_calls->setSelectionMode(QAbstractItemView::SingleSelection);
    m_calls->verticalHeader()->hide();
    m_calls->horizontalHeader()->setStretchLastSection(false);
    for (int c = 0; c < CurrentReconcileModel::ColumnCount; ++c)
        m_calls->horizontalHeader()->setSectionResizeMode(
            c, c == CurrentReconcileModel::ObjectColumn ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
    m_calls->setAccessibleName(tr("Client calls of the current reconcile"));
    m_detail->setObjectName(QStringLiteral("detailView"));
    m_detail->setReadOnly(true);
    m_detail->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new YamlDiffHighlighter(m_detail->document());
    m_showNoise->setObjectName(QStringLiteral("showNoiseBox"));
    m_showNoise->setToolTip(tr("Show metadata.resourceVersion, managedFields and the generation bookkeeping, "
                               "which change on every write"));

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_stepOver, m_stepOut, m_continue, m_runTo})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(m_showNoise);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("currentReconcileSplitter"));
    split->addWidget(m_calls);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_breakpoint);
    layout->addWidget(m_header);
    layout->addWidget(m_causes);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);

    connect(m_stepOver, &QPushButton::clicked, this, &CurrentReconcileView::stepOverRequested);
    connect(m_stepOut, &QPushButton::clicked, this, &CurrentReconcileView::stepOutRequested);
    connect(m_continue, &QPushButton::clicked, this, &CurrentReconcileView::continueRequested);
    connect(m_runTo, &QPushButton::clicked, this, [this] { Q_EMIT runToKeyRequested(m_model->frame().key); });
    connect(m_showNoise, &QCheckBox::toggled, this, &CurrentReconcileView::showDetail);
    connect(
        m_calls->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CurrentReconcileView::showDetail);
    apply({});
}

void CurrentReconcileView::apply(const CurrentReconcile &frame)
{
    m_model->apply(frame);
    m_header->setText(frame.reconcileId.isEmpty()
            ? tr("No reconcile stepped yet. Step (F10) or Step into (F11) hands the next queued key to a worker; "
                 "its client calls then appear here one by one.")
            : m_model->headerText());
    m_causes->setText(
        frame.causes.isEmpty() ? QString() : tr("Causes: %1").arg(frame.causes.join(QStringLiteral(" · "))));
    m_causes->setVisible(!frame.causes.isEmpty());
    const int rows = m_model->rowCount();
    const int follow = m_model->pendingRow() >= 0 ? m_model->pendingRow() : rows - 1;
    if (follow >= 0)
        m_calls->setCurrentIndex(m_model->index(follow, 0));
    showDetail();
    updateButtons();
}

void CurrentReconcileView::setBreakpointHit(const QString &description)
{
    m_breakpoint->setText(description.isEmpty() ? QString() : tr("● Stopped by breakpoint: %1").arg(description));
    m_breakpoint->setVisible(!description.isEmpty());
}

void CurrentReconcileView::setAvailable(bool available)
{
    m_available = available;
    updateButtons();
}

void CurrentReconcileView::showDetail()
{
    const QModelIndex current = m_calls->currentIndex();
    const QString text = current.isValid() ? m_model->detailText(current.row(), !m_showNoise->isChecked()) : QString();
    if (text != m_detail->toPlainText())
        m_detail->setPlainText(text);
}

void CurrentReconcileView::updateButtons()
{
    const CurrentReconcile &f = m_model->frame();
    const bool inFlight = m_available && !f.reconcileId.isEmpty() && !f.finished;
    m_stepOver->setEnabled(inFlight && f.halted);
    m_stepOut->setEnabled(inFlight);
    m_continue->setEnabled(m_available);
    m_runTo->setEnabled(m_available && !f.key.isEmpty());
}

} // namespace opbench::ui
