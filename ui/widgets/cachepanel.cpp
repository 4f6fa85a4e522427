// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/cachepanel.h"

#include "ui/widgets/badgedelegate.h"

#include "ui/models/cachefilterproxy.h"
#include "ui/models/cachetreemodel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
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
    , m_relistMarker(new QLabel(this))
{
    m_relistMarker->setObjectName(QStringLiteral("cacheRelistMarker"));
    m_relistMarker->setWordWrap(true);
    m_relistMarker->setStyleSheet(QStringLiteral("background: #fff3e0; color: #e65100; padding: 2px"));
    m_relistMarker->setVisible(false);
    m_proxy->setSourceModel(model);
    m_filter->setPlaceholderText(tr("Filter: app=web, tier in (backend), or text"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setAccessibleName(tr("Cache filter"));
    m_filterError->setWordWrap(true);
    m_filterError->setStyleSheet(QStringLiteral("color: #d32f2f"));
    m_filterError->setVisible(false);
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(CacheTreeModel::InfoColumn, new BadgeDelegate(m_view));
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    // No ResizeToContents: with thousands of rows it measures up to 1,000 rows' text on every
    // change (the dominant UI-thread cost while a large cache syncs). A fixed, resizable width.
    m_view->header()->setSectionResizeMode(CacheTreeModel::NameColumn, QHeaderView::Stretch);
    m_view->header()->setSectionResizeMode(CacheTreeModel::InfoColumn, QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->resizeSection(
        CacheTreeModel::InfoColumn, m_view->fontMetrics().horizontalAdvance(tr("syncing… · rv 0000000000")) + 16);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_relistMarker);
    layout->addWidget(m_filter);
    layout->addWidget(m_filterError);
    layout->addWidget(m_view, 1);
    layout->addWidget(makeTimeTravelBar());
    connect(m_filter, &QLineEdit::textChanged, this, &CachePanel::onFilterChanged);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &CachePanel::onCurrentChanged);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &CachePanel::expandNew);
    connect(model, &CacheTreeModel::historyRangeChanged, this, &CachePanel::onHistoryRange);
}

QWidget *CachePanel::makeTimeTravelBar()
{
    auto *box = new QWidget(this);
    m_slider = new QSlider(Qt::Horizontal, box);
    m_slider->setObjectName(QStringLiteral("cacheHistorySlider"));
    m_slider->setAccessibleName(tr("Cache history"));
    m_slider->setToolTip(tr("Time travel: drag left to see the whole cache as it was at an earlier resourceVersion"));
    m_slider->setEnabled(false);
    m_sliderLabel = new QLabel(tr("live"), box);
    m_banner = new QLabel(box);
    m_banner->setObjectName(QStringLiteral("timeTravelBanner"));
    m_banner->setWordWrap(true);
    m_banner->setStyleSheet(QStringLiteral("background: #ede7f6; color: #4a148c; padding: 2px"));
    m_banner->setVisible(false);
    m_liveButton = new QPushButton(tr("Back to live"), box);
    m_liveButton->setVisible(false);
    m_debounce = new QTimer(this);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_slider, &QSlider::valueChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &CachePanel::onSliderMoved);
    connect(m_liveButton, &QPushButton::clicked, this, &CachePanel::backToLive);
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("history"), box));
    row->addWidget(m_slider, 1);
    row->addWidget(m_sliderLabel);
    auto *bannerRow = new QHBoxLayout;
    bannerRow->addWidget(m_banner, 1);
    bannerRow->addWidget(m_liveButton);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addLayout(bannerRow);
    return box;
}

void CachePanel::onHistoryRange(qint64 oldest, qint64 latest)
{
    // Live: stay pinned to the right end as the cache moves on.
    // (m_atLive, not the slider's value: its first range would leave it at the far left.)
    const bool live
        = m_atLive && !m_past && m_requestedRv.isEmpty() && !m_debounce->isActive() && !m_slider->isSliderDown();
    const QSignalBlocker block(m_slider);
    m_slider->setRange(int(std::min(oldest, latest)), int(latest));
    m_slider->setEnabled(oldest > 0 && oldest < latest);
    if (live)
        m_slider->setValue(int(latest));
}

void CachePanel::onSliderMoved()
{
    if (m_slider->value() >= m_slider->maximum()) {
        backToLive();
        return;
    }
    m_atLive = false;
    m_requestedRv = QString::number(m_slider->value());
    m_sliderLabel->setText(tr("rv %1…").arg(m_requestedRv));
    Q_EMIT timeTravelRequested(m_requestedRv);
}

void CachePanel::showPast(const CachePast &past)
{
    if (past.resourceVersion != m_requestedRv)
        return; // stale answer
    if (!past.error.isEmpty()) {
        m_banner->setText(past.error);
        m_banner->setVisible(true);
        m_liveButton->setVisible(true);
        return;
    }
    auto *model = new CacheTreeModel(this);
    model->apply(past.batch);
    showModel(model);
    delete m_past;
    m_past = model;
    m_sliderLabel->setText(tr("rv %1").arg(past.resourceVersion));
    m_banner->setText(tr("Viewing the past: the cache as it was at resourceVersion %1 (%n object(s)). The live "
                         "cache keeps updating meanwhile.",
        nullptr, model->objectCount())
                          .arg(past.resourceVersion));
    m_banner->setVisible(true);
    m_liveButton->setVisible(true);
}

void CachePanel::backToLive()
{
    m_atLive = true;
    m_requestedRv.clear();
    if (m_past) {
        showModel(m_model);
        delete m_past;
        m_past = nullptr;
    }
    m_banner->setVisible(false);
    m_liveButton->setVisible(false);
    m_sliderLabel->setText(tr("live"));
    const QSignalBlocker block(m_slider);
    m_slider->setValue(m_slider->maximum());
}

void CachePanel::showRelists(const QList<InformerState> &informers)
{
    QStringList kinds;
    int relists = 0;
    for (const InformerState &s : informers) {
        relists += s.relists;
        if (s.relists > 0)
            kinds.append(s.kind);
    }
    m_relistMarker->setVisible(relists > 0);
    if (relists > 0)
        m_relistMarker->setText(tr("410 → relist: the watch could not resume from its resourceVersion, so the "
                                   "informer listed everything again (%1; %n relist(s)).",
            nullptr, relists)
                                    .arg(kinds.join(QStringLiteral(", "))));
}

CacheTreeModel *CachePanel::shownModel() const { return m_past ? m_past : m_model; }

void CachePanel::showModel(CacheTreeModel *model)
{
    m_proxy->setSourceModel(model);
    for (int k = 0; k < m_proxy->rowCount(); ++k) {
        const QModelIndex kind = m_proxy->index(k, 0);
        m_view->expand(kind);
        for (int n = 0; n < m_proxy->rowCount(kind); ++n)
            m_view->expand(m_proxy->index(n, 0, kind));
    }
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
    const QModelIndex idx = m_proxy->mapFromSource(shownModel()->indexOf(kind, key));
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
