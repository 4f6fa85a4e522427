// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/reconcilespanel.h"

#include "ui/models/reconcilefilterproxy.h"
#include "ui/models/reconcilelistmodel.h"
#include "ui/widgets/chipsdelegate.h"
#include "ui/widgets/infodock.h"
#include "ui/widgets/reconciletimelineview.h"
#include "ui/yamldiff.h"
#include "ui/yamlhighlighter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace opbench::ui {

namespace {

QPlainTextEdit *makeDetail(QWidget *parent)
{
    auto *v = new QPlainTextEdit(parent);
    v->setReadOnly(true);
    v->setLineWrapMode(QPlainTextEdit::NoWrap);
    v->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return v;
}

QString describeCalls(const ReconcileTrace &t)
{
    QStringList lines;
    for (const TraceCall &c : t.calls) {
        lines.append(QStringLiteral("%1 %2 %3  [%4]  %5  %6")
                         .arg(c.verb, c.gvk.kind, c.key, c.fromCache ? QStringLiteral("cache") : QStringLiteral("live"))
                         .arg(c.code)
                         .arg(formatDuration(c.latency)));
        if (!c.ok() && !c.message.isEmpty())
            lines.append(QStringLiteral("    %1: %2").arg(c.reason, c.message));
    }
    if (!t.error.isEmpty())
        lines.append(QStringLiteral("\nerror: %1").arg(t.error));
    return lines.isEmpty() ? QObject::tr("No client calls.") : lines.join(u'\n');
}

} // namespace

ReconcilesPanel::ReconcilesPanel(ReconcileListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new ReconcileFilterProxy(this))
    , m_stack(new QStackedWidget(this))
    , m_keyFilter(new QLineEdit(this))
    , m_resultFilter(new QComboBox(this))
    , m_view(new QTableView(this))
    , m_timeline(new ReconcileTimelineView(model, this))
    , m_causes(makeDetail(this))
    , m_calls(makeDetail(this))
    , m_diffs(makeDetail(this))
    , m_hideNoise(new QCheckBox(tr("Hide noise (resourceVersion, generation, managedFields, uid)"), this))
    , m_newestFirst(new QCheckBox(tr("Newest first"), this))
    , m_follow(new QCheckBox(tr("Object follows"), this))
    , m_idleHint(new QLabel(this))
{
    setUpHintAndToggles();
    m_proxy->setSourceModel(model);
    m_proxy->setNewestFirst(true);
    m_diffs->setObjectName(QStringLiteral("reconcileDiffs"));
    new YamlDiffHighlighter(m_diffs->document());
    m_keyFilter->setObjectName(QStringLiteral("reconcileKeyFilter"));
    m_keyFilter->setPlaceholderText(tr("Filter by key"));
    m_keyFilter->setClearButtonEnabled(true);
    m_resultFilter->addItems({tr("all results"), QStringLiteral("success"), QStringLiteral("requeue"),
        QStringLiteral("requeue_after"), QStringLiteral("error"), QStringLiteral("terminal_error")});
    setUpList();
    auto *exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Export the selected traces as JSON"));
    auto *filters = new QHBoxLayout;
    filters->addWidget(m_keyFilter, 1);
    filters->addWidget(m_resultFilter);
    filters->addWidget(m_newestFirst);
    filters->addWidget(m_follow);
    filters->addWidget(exportButton);
    auto *details = new QTabWidget(this);
    details->addTab(m_causes, tr("Causes"));
    details->addTab(m_calls, tr("Calls"));
    auto *diffsTab = new QWidget(details);
    auto *diffsLayout = new QVBoxLayout(diffsTab);
    diffsLayout->setContentsMargins(0, 0, 0, 0);
    diffsLayout->addWidget(m_hideNoise);
    diffsLayout->addWidget(m_diffs, 1);
    details->addTab(diffsTab, tr("Diffs"));
    details->setObjectName(QStringLiteral("reconcileDetails"));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("reconcilesSplitter"));
    split->addWidget(makeTimelineBox());
    split->addWidget(m_view);
    split->addWidget(details);
    // The list and the details get the room; the timeline scrolls its lanes.
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 3);
    auto *content = new QWidget(m_stack);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(filters);
    layout->addWidget(split, 1);
    layout->addWidget(m_idleHint);
    m_stack->addWidget(makeUnavailableLabel(
        tr("Reconciles are not available yet: no controller is running (it starts once connected)."), m_stack));
    m_stack->addWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);
    connect(m_keyFilter, &QLineEdit::textChanged, this, &ReconcilesPanel::updateFilter);
    connect(m_resultFilter, &QComboBox::currentIndexChanged, this, &ReconcilesPanel::updateFilter);
    connect(m_newestFirst, &QCheckBox::toggled, this, [this](bool on) {
        m_proxy->setNewestFirst(on);
        if (on)
            m_view->scrollToTop();
    });
    connect(m_hideNoise, &QCheckBox::toggled, this, &ReconcilesPanel::showDetails);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ReconcilesPanel::showDetails);
    connect(exportButton, &QPushButton::clicked, this, &ReconcilesPanel::exportRequested);
    connect(m_timeline, &ReconcileTimelineView::rowClicked, this, &ReconcilesPanel::selectRow);
}

void ReconcilesPanel::setUpHintAndToggles()
{
    m_follow->setObjectName(QStringLiteral("followSelection"));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Show the selected reconcile's object in the Object panel"));
    m_idleHint->setObjectName(QStringLiteral("idleHint"));
    m_idleHint->setWordWrap(true);
    m_idleHint->setText(tr("Nothing to reconcile: the queue is empty. Try editing an app, deleting its Deployment "
                           "(Children), or a fault (Faults)."));
    m_idleHint->setToolTip(tr("The controller only works when something changes: every edit, on any object it "
                              "watches or owns, comes back here as a reconcile."));
    m_idleHint->setStyleSheet(
        QStringLiteral("QLabel { background: palette(alternate-base); border: 1px solid palette(mid); "
                       "border-radius: 3px; padding: 4px; }"));
    // Shown or not, the hint keeps its place below the details: the list never moves under the
    // pointer when it comes and goes.
    QSizePolicy hintPolicy = m_idleHint->sizePolicy();
    hintPolicy.setRetainSizeWhenHidden(true);
    m_idleHint->setSizePolicy(hintPolicy);
    m_idleHint->setVisible(false);
    m_newestFirst->setObjectName(QStringLiteral("newestFirst"));
    m_newestFirst->setChecked(true);
    m_newestFirst->setToolTip(tr("The reconcile that just finished on top, always in view"));
    m_hideNoise->setObjectName(QStringLiteral("hideNoise"));
    m_hideNoise->setChecked(true);
    m_hideNoise->setToolTip(tr("Hide the fields every write changes (resourceVersion, managedFields, generation, "
                               "observedGeneration, uid, creationTimestamp) so what the reconciler changed stands "
                               "out"));
}

void ReconcilesPanel::setUpList()
{
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->setWordWrap(false);
    m_view->setItemDelegateForColumn(ReconcileListModel::CausesColumn, new ChipsDelegate(m_view));
    m_view->setMouseTracking(true); // chip tool tips
    // The causes last, taking the rest of the width.
    m_view->horizontalHeader()->moveSection(ReconcileListModel::CausesColumn, ReconcileListModel::ColumnCount - 1);
    m_view->horizontalHeader()->setStretchLastSection(true);
    // Compact fixed columns around the causes: the chips get the room (no ResizeToContents, which
    // measures thousands of rows).
    const QFontMetrics fm = m_view->fontMetrics();
    const std::pair<int, QString> widths[] = {{ReconcileListModel::IdColumn, QStringLiteral("e9e86298")},
        {ReconcileListModel::KeyColumn, QStringLiteral("default/frontend-x")},
        {ReconcileListModel::ResultColumn, QStringLiteral("terminal_error")},
        {ReconcileListModel::DurationColumn, QStringLiteral("999.9 ms")},
        {ReconcileListModel::CallsColumn, tr("Calls")}};
    for (const auto &[column, sample] : widths)
        m_view->horizontalHeader()->resizeSection(column, fm.horizontalAdvance(sample) + 16);
}

QWidget *ReconcilesPanel::makeTimelineBox()
{
    auto *box = new QWidget(this);
    auto *lanes = new QComboBox(box);
    lanes->setObjectName(QStringLiteral("timelineLanes"));
    lanes->addItems({tr("one lane per key"), tr("one lane per worker")});
    auto *span = new QComboBox(box);
    span->setObjectName(QStringLiteral("timelineSpan"));
    const QList<std::pair<QString, qint64>> spans{
        {tr("last 10 s"), 10000}, {tr("last 30 s"), 30000}, {tr("last 2 min"), 120000}, {tr("last 10 min"), 600000}};
    for (const auto &[text, ms] : spans)
        span->addItem(text, ms);
    span->setCurrentIndex(1);
    connect(lanes, &QComboBox::currentIndexChanged, m_timeline,
        [this](int i) { m_timeline->setLaneMode(i == 0 ? TimelineLanes::ByKey : TimelineLanes::ByWorker); });
    connect(span, &QComboBox::currentIndexChanged, m_timeline,
        [this, span](int i) { m_timeline->setSpanMs(span->itemData(i).toLongLong()); });
    auto *controls = new QHBoxLayout;
    controls->addWidget(lanes);
    controls->addWidget(span);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    // As tall as its lanes (every key the filter lets through), scrolled when they do not fit.
    auto *scroll = new QScrollArea(box);
    scroll->setObjectName(QStringLiteral("timelineScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setWidget(m_timeline);
    layout->addWidget(scroll, 1);
    return box;
}

void ReconcilesPanel::setPaused(bool paused) { m_timeline->setPaused(paused); }

void ReconcilesPanel::selectRow(int row)
{
    if (row < 0 || row >= m_model->rowCount())
        return;
    QModelIndex idx = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!idx.isValid()) {
        m_keyFilter->clear();
        m_resultFilter->setCurrentIndex(0);
        idx = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx);
}

void ReconcilesPanel::setAvailable(bool available) { m_stack->setCurrentIndex(available ? 1 : 0); }

void ReconcilesPanel::updateFilter()
{
    const QString result = m_resultFilter->currentIndex() == 0 ? QString() : m_resultFilter->currentText();
    m_proxy->setFilters(m_keyFilter->text(), result);
    m_timeline->setKeyFilter(m_keyFilter->text());
}

void ReconcilesPanel::showDetails()
{
    const QModelIndex current = m_proxy->mapToSource(m_view->currentIndex());
    if (!current.isValid())
        return;
    m_timeline->setSelectedRow(current.row());
    const ReconcileTrace &t = m_model->traceAt(current.row());
    Q_EMIT reconcileSelected(t.request.toString());
    QStringList causes;
    for (const Cause &c : t.causes)
        causes.append(c.describe());
    if (t.causes.dropped() > 0)
        causes.append(tr("… and %1 more").arg(t.causes.dropped()));
    causes.append(tr("\nread from cache at resourceVersion %1; %2 retries before; priority %3")
                      .arg(t.cacheResourceVersion)
                      .arg(t.retries)
                      .arg(t.priority));
    if (const QString d = m_model->divergenceAt(current.row()); !d.isEmpty())
        causes.prepend(tr("DIVERGED from the recording: %1\n").arg(d));
    m_causes->setPlainText(causes.join(u'\n'));
    m_calls->setPlainText(describeCalls(t));
    const QString diffs = callsYamlDiff(t.calls, m_hideNoise->isChecked());
    m_diffs->setPlainText(diffs.isEmpty() ? tr("# No writes.") : diffs);
}

bool ReconcilesPanel::followsSelection() const { return m_follow->isChecked(); }

void ReconcilesPanel::setIdle(bool idle) { m_idleHint->setVisible(idle); }

QByteArray ReconcilesPanel::selectedTracesJson() const
{
    QJsonArray out;
    for (const QModelIndex &idx : m_view->selectionModel()->selectedRows())
        out.append(m_model->traceAt(m_proxy->mapToSource(idx).row()).toJson());
    return QJsonDocument(out).toJson();
}

} // namespace opbench::ui
