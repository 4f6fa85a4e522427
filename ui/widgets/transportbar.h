// SPDX-License-Identifier: Apache-2.0
#pragma once
// TransportBar: the replay's transport (a recording opened in the workbench): play, pause, step,
// step into, the speed (1×, 10×, max), a seek field (a time or a resourceVersion) and where the
// replay stands. It only emits intents and shows the ReplayState it is given.

#include "engine/workbench/replaysession.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QToolButton;

namespace opbench::ui {

class TransportBar : public QWidget
{
    Q_OBJECT
public:
    explicit TransportBar(QWidget *parent = nullptr);

    void apply(const workbench::ReplayState &state);
    /// "record 120/431 · 12/40 reconciles · 1 diverged · 2026-12-04T15:00:01.250Z · rv 1234", then
    /// "stepping into …", "paused at breakpoint: key default/web" or "end of the recording".
    QString positionText() const;
    /// The speed chosen (1, 10; 0 = max).
    double speed() const;

Q_SIGNALS:
    void playRequested(double speed);
    void pauseRequested();
    void stepRequested();
    void stepIntoRequested();
    void seekToTimeRequested(const QString &when);
    void seekToResourceVersionRequested(const QString &rv);

private:
    void seek();

    QToolButton *m_play;
    QToolButton *m_pause;
    QToolButton *m_step;
    QToolButton *m_stepInto;
    QComboBox *m_speed;
    QComboBox *m_seekKind;
    QLineEdit *m_seek;
    QLabel *m_position;
};

} // namespace opbench::ui
