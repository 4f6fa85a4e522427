// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/transportbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QToolButton>

namespace opbench::ui {

namespace {

QToolButton *button(
    QWidget *parent, const QString &name, const QString &text, QStyle::StandardPixmap icon, const QString &tip)
{
    auto *b = new QToolButton(parent);
    b->setObjectName(name);
    b->setText(text);
    b->setIcon(parent->style()->standardIcon(icon));
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    b->setToolTip(tip);
    return b;
}

} // namespace

TransportBar::TransportBar(QWidget *parent)
    : QWidget(parent)
    , m_play(button(this, QStringLiteral("replayPlay"), tr("Play"), QStyle::SP_MediaPlay,
          tr("Replay the recording at the speed chosen")))
    , m_pause(button(this, QStringLiteral("replayPause"), tr("Pause"), QStyle::SP_MediaPause, tr("Pause the replay")))
    , m_step(button(this, QStringLiteral("replayStep"), tr("Step"), QStyle::SP_MediaSeekForward,
          tr("Replay up to the end of the next reconcile (stepping into one: let its next call go out)")))
    , m_stepInto(button(this, QStringLiteral("replayStepInto"), tr("Step into"), QStyle::SP_ArrowDown,
          tr("Start the next reconcile and halt before each of its client calls")))
    , m_speed(new QComboBox(this))
    , m_seekKind(new QComboBox(this))
    , m_seek(new QLineEdit(this))
    , m_position(new QLabel(this))
{
    setObjectName(QStringLiteral("transportBar"));
    m_speed->setObjectName(QStringLiteral("replaySpeed"));
    m_speed->addItem(tr("1×"), 1.0);
    m_speed->addItem(tr("10×"), 10.0);
    m_speed->addItem(tr("max"), 0.0);
    m_speed->setToolTip(tr("Replay speed: as recorded (idle gaps over 2 s shortened), ten times faster, or as fast "
                           "as possible"));
    m_seekKind->setObjectName(QStringLiteral("replaySeekKind"));
    m_seekKind->addItem(tr("resourceVersion"));
    m_seekKind->addItem(tr("time"));
    m_seek->setObjectName(QStringLiteral("replaySeek"));
    m_seek->setPlaceholderText(tr("seek to… (Enter)"));
    m_seek->setToolTip(tr("Start the replay again and stop before the first reconcile after the cache reached this "
                          "resourceVersion, or that started at or after this time (ISO 8601, UTC)"));
    m_position->setObjectName(QStringLiteral("replayPosition"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 0, 4, 0);
    for (QWidget *w :
        std::initializer_list<QWidget *>{m_play, m_pause, m_step, m_stepInto, m_speed, m_seekKind, m_seek})
        row->addWidget(w);
    row->addWidget(m_position, 1);
    connect(m_play, &QToolButton::clicked, this, [this] { Q_EMIT playRequested(speed()); });
    connect(m_pause, &QToolButton::clicked, this, &TransportBar::pauseRequested);
    connect(m_step, &QToolButton::clicked, this, &TransportBar::stepRequested);
    connect(m_stepInto, &QToolButton::clicked, this, &TransportBar::stepIntoRequested);
    connect(m_speed, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_play->isEnabled()) // playing: the new speed applies at once
            Q_EMIT playRequested(speed());
    });
    connect(m_seek, &QLineEdit::returnPressed, this, &TransportBar::seek);
    apply({});
}

double TransportBar::speed() const { return m_speed->currentData().toDouble(); }

void TransportBar::seek()
{
    const QString target = m_seek->text().trimmed();
    if (target.isEmpty())
        return;
    if (m_seekKind->currentIndex() == 0)
        Q_EMIT seekToResourceVersionRequested(target);
    else
        Q_EMIT seekToTimeRequested(target);
}

void TransportBar::apply(const workbench::ReplayState &s)
{
    const bool more = s.open && !s.finished;
    m_play->setEnabled(more && !s.playing);
    m_pause->setEnabled(s.playing);
    m_step->setEnabled(more);
    m_stepInto->setEnabled(more);
    m_seek->setEnabled(s.open);
    QStringList parts{
        tr("record %1/%2").arg(s.position).arg(s.records), tr("%1/%2 reconciles").arg(s.replayed).arg(s.reconciles)};
    if (s.diverged > 0)
        parts.append(tr("%n diverged", nullptr, s.diverged));
    if (!s.at.isEmpty())
        parts.append(s.at);
    if (!s.resourceVersion.isEmpty())
        parts.append(tr("rv %1").arg(s.resourceVersion));
    if (!s.stepping.isEmpty())
        parts.append(tr("stepping into %1").arg(s.stepping.left(8)));
    if (!s.breakpoint.isEmpty())
        parts.append(tr("paused at breakpoint: %1").arg(s.breakpoint));
    if (s.finished)
        parts.append(tr("end of the recording"));
    m_position->setText(parts.join(QStringLiteral(" · ")));
}

QString TransportBar::positionText() const { return m_position->text(); }

} // namespace opbench::ui
