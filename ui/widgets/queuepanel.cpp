// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/queuepanel.h"

#include "ui/models/queueitemsmodel.h"
#include "ui/widgets/infodock.h"
#include "ui/widgets/palette.h"

#include <QChart>
#include <QChartView>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

namespace opbench::ui {

namespace {
constexpr double WindowSeconds = 60.0;
}

QueuePanel::QueuePanel(QueueItemsModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_stack(new QStackedWidget(this))
    , m_rates(new QLabel(this))
    , m_view(new QTableView(this))
{
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_rates->setText(tr("adds/s – · retries/s – · depth –"));

    auto *content = new QWidget(m_stack);
    auto *split = new QSplitter(Qt::Vertical, content);
    split->setObjectName(QStringLiteral("queueSplitter"));
    split->addWidget(makeChart());
    split->addWidget(m_view);
    split->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rates);
    layout->addWidget(split, 1);

    m_stack->addWidget(makeUnavailableLabel(
        tr("The work queue is not available yet: no controller is running (it starts once connected)."), m_stack));
    m_stack->addWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_stack);
}

QWidget *QueuePanel::makeChart()
{
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_depth = new QLineSeries(m_chart);
    m_depth->setName(tr("ready"));
    m_depth->setColor(resultColour(ResultColour::RequeueAfter));
    m_processing = new QLineSeries(m_chart);
    m_processing->setName(tr("processing"));
    m_processing->setColor(resultColour(ResultColour::Success));
    m_chart->addSeries(m_depth);
    m_chart->addSeries(m_processing);
    m_xAxis = new QValueAxis(m_chart);
    m_xAxis->setRange(-WindowSeconds, 0);
    m_xAxis->setLabelFormat(QStringLiteral("%d s"));
    m_xAxis->setTitleText(tr("seconds since the session started"));
    m_xAxis->setTickType(QValueAxis::TicksDynamic); // whole 10 s marks, not 4 arbitrary ones
    m_xAxis->setTickAnchor(0);
    m_xAxis->setTickInterval(10);
    m_yAxis = new QValueAxis(m_chart);
    m_yAxis->setRange(0, 1);
    m_yAxis->setLabelFormat(QStringLiteral("%d"));
    m_yAxis->setTickType(QValueAxis::TicksDynamic); // integer depths only (no "0 0 1 1 2")
    m_yAxis->setTickAnchor(0);
    m_yAxis->setTickInterval(1);
    m_chart->addAxis(m_xAxis, Qt::AlignBottom);
    m_chart->addAxis(m_yAxis, Qt::AlignLeft);
    for (auto *s : {m_depth, m_processing}) {
        s->attachAxis(m_xAxis);
        s->attachAxis(m_yAxis);
    }
    auto *view = new QChartView(m_chart, this); // takes ownership of the chart
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    return view;
}

void QueuePanel::setAvailable(bool available) { m_stack->setCurrentIndex(available ? 1 : 0); }

void QueuePanel::addSample(const QueueSample &sample)
{
    const double t = double(sample.atMs) / 1000.0;
    m_depth->append(t, sample.depth);
    m_processing->append(t, sample.processing);
    for (auto *s : {m_depth, m_processing}) {
        while (s->count() > 0 && s->at(0).x() < t - WindowSeconds)
            s->remove(0);
    }
    m_maxDepth = 1;
    for (auto *s : {m_depth, m_processing}) {
        for (const QPointF &p : s->points())
            m_maxDepth = qMax(m_maxDepth, int(p.y()));
    }
    m_xAxis->setRange(t - WindowSeconds, t);
    m_yAxis->setRange(0, m_maxDepth + 1);
    int step = 1; // 1, 2, 5, 10, 20, 50 … so that at most ~5 labels show
    while ((m_maxDepth + 1) / step > 5)
        step = (QString::number(step).startsWith(QLatin1Char('2'))) ? step * 5 / 2 : step * 2;
    m_yAxis->setTickInterval(step);
    m_rates->setText(tr("adds/s %1 · retries/s %2 · ready %3 · processing %4 · waiting %5")
                         .arg(sample.addsPerSec, 0, 'f', 1)
                         .arg(sample.retriesPerSec, 0, 'f', 1)
                         .arg(sample.depth)
                         .arg(sample.processing)
                         .arg(sample.waiting));
    m_model->apply(sample.rows);
}

} // namespace opbench::ui
