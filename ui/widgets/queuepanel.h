// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueuePanel: the work queue's depth over the last 60 s (Qt Charts), adds/s and retries/s, and
// the items with their state, priority, retries and causes. Shows an honest placeholder while
// no controller queue is running.

#include "ui/session/snapshots.h"

#include <QWidget>

class QLabel;
class QLineSeries;
class QValueAxis;
class QChart;
class QStackedWidget;
class QTableView;

namespace opbench::ui {

class QueueItemsModel;

class QueuePanel : public QWidget
{
    Q_OBJECT
public:
    explicit QueuePanel(QueueItemsModel *model, QWidget *parent = nullptr);

    /// Shows the chart and table (true) or the "not available yet" placeholder.
    void setAvailable(bool available);
    void addSample(const opbench::workbench::QueueSample &sample);
    QTableView *view() const { return m_view; }

private:
    QWidget *makeChart();

    QueueItemsModel *m_model;
    QStackedWidget *m_stack;
    QLabel *m_rates;
    QTableView *m_view;
    QChart *m_chart = nullptr;
    QLineSeries *m_depth = nullptr;
    QLineSeries *m_processing = nullptr;
    QValueAxis *m_xAxis = nullptr;
    QValueAxis *m_yAxis = nullptr;
    int m_maxDepth = 1;
};

} // namespace opbench::ui
