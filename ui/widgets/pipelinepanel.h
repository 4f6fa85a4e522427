// SPDX-License-Identifier: Apache-2.0
#pragma once
// PipelinePanel: the controller's machinery drawn as a row of stages (PipelineModel) joined by
// arrows, with the writes going back round to the API server. Each stage shows its count and a
// line of detail; its outline says what it is doing (green: items went through it just now;
// violet: paused workers or a reconcile halted by step into; amber: keys waiting out a backoff).
// Dots travel along an arrow while items flow into the next stage — at most three per arrow
// whatever the rate, so 10,000 objects stay readable. A click (or Enter on the focused stage)
// asks for the dock that shows that stage.
//
// While visible it advances the model four times a second (the throttle); hidden, it costs
// nothing.

#include <QWidget>

class QTimer;

namespace opbench::ui {

class PipelineModel;

class PipelinePanel : public QWidget
{
    Q_OBJECT
public:
    explicit PipelinePanel(PipelineModel *model, QWidget *parent = nullptr);

    PipelineModel *model() const { return m_model; }
    /// Where stage `row` is drawn (empty for an unknown row).
    QRectF stageRect(int row) const;
    /// The stage under `pos`, or -1.
    int stageAt(QPointF pos) const;
    /// The stage with the keyboard focus.
    int currentStage() const { return m_current; }
    /// Dots drawn on an arrow for `activity` items in the last interval: 0 for none, 1–3 rising
    /// with the order of magnitude, never more.
    static int dotCount(qint64 activity);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// The user clicked stage `row` (or pressed Enter on it).
    void stageActivated(int row);
    /// The dock that shows the activated stage ("cacheDock", "queueDock", …).
    void openDockRequested(const QString &dockName);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void activate(int row);
    void tick();
    void paintStage(QPainter &p, int row, const QRectF &box) const;
    void paintArrow(QPainter &p, const QList<QPointF> &path, qint64 activity) const;
    qreal boxHeight() const;

    PipelineModel *m_model;
    QTimer *m_timer;
    int m_current = 0;
    int m_frame = 0;
};

} // namespace opbench::ui
