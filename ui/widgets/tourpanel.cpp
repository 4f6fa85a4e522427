// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/tourpanel.h"

#include "engine/workbench/tour.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace opbench::ui {

namespace {

QLabel *wrapped(QWidget *parent, const QString &name)
{
    auto *l = new QLabel(parent);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

} // namespace

TourPanel::TourPanel(QWidget *parent)
    : QWidget(parent)
    , m_progress(wrapped(this, QStringLiteral("tourProgress")))
    , m_title(wrapped(this, QStringLiteral("tourTitle")))
    , m_task(wrapped(this, QStringLiteral("tourTask")))
    , m_lesson(wrapped(this, QStringLiteral("tourLesson")))
    , m_status(wrapped(this, QStringLiteral("tourStatus")))
    , m_answer(new QPlainTextEdit(this))
    , m_action(new QPushButton(this))
    , m_back(new QPushButton(tr("&Back"), this))
    , m_next(new QPushButton(tr("&Next"), this))
    , m_stop(new QPushButton(tr("&Start the tour"), this))
{
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    buttons->addStretch();
    buttons->addWidget(m_stop);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_progress);
    layout->addWidget(m_title);
    layout->addWidget(m_task);
    layout->addWidget(m_lesson);
    layout->addWidget(m_action, 0, Qt::AlignLeft);
    layout->addWidget(m_status);
    layout->addWidget(m_answer); // below the status: a long answer never pushes "✓ Done" away
    layout->addStretch();
    layout->addLayout(buttons);
    m_action->setObjectName(QStringLiteral("tourAction"));
    m_action->setVisible(false);
    m_answer->setObjectName(QStringLiteral("tourAnswer"));
    m_answer->setReadOnly(true);
    m_answer->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_answer->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_answer->setMaximumHeight(m_answer->fontMetrics().lineSpacing() * 16);
    m_answer->setVisible(false);
    connect(m_action, &QPushButton::clicked, this, [this] {
        if (m_actionKind == u"relist")
            Q_EMIT relistRequested();
        else if (m_actionKind == u"kubectl")
            Q_EMIT kubectlRequested();
        else if (!m_fault.isEmpty())
            Q_EMIT faultRequested(m_fault);
    });
    connect(m_back, &QPushButton::clicked, this, &TourPanel::backRequested);
    connect(m_next, &QPushButton::clicked, this, &TourPanel::nextRequested);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_stop->property("running").toBool())
            Q_EMIT stopRequested();
        else
            Q_EMIT startRequested();
    });
    apply({});
}

void TourPanel::showAnswer(const QString &command, bool ok, const QString &output)
{
    m_answer->setPlainText(QStringLiteral("$ ") + command + u'\n' + output);
    m_answer->setStyleSheet(ok ? QString() : QStringLiteral("QPlainTextEdit { color: #c62828; }"));
    m_answer->setVisible(m_answerIndex >= 0);
}

void TourPanel::apply(const workbench::TourState &s)
{
    const bool running = s.index >= 0 && !s.finished;
    if (!running || s.index != m_answerIndex) { // another lesson: the last one's answer goes
        m_answer->clear();
        m_answer->setVisible(false);
    }
    m_answerIndex = running ? s.index : -1;
    m_stop->setProperty("running", running);
    m_stop->setText(running ? tr("&Stop the tour") : tr("&Start the tour"));
    m_back->setEnabled(running && s.index > 0);
    m_actionKind = running ? s.lesson.actionKind : QString();
    m_fault = running ? s.lesson.fault : QString();
    m_action->setText(tr("%1 (Alt+A)").arg(s.lesson.action));
    m_action->setShortcut(QKeySequence(Qt::ALT | Qt::Key_A)); // after setText, which sets its own
    m_action->setVisible(running && !s.lesson.action.isEmpty());
    m_next->setEnabled(running);
    if (s.finished) {
        m_progress->setText(tr("Tour finished: %1 of %2 lessons done").arg(s.completed.size()).arg(s.count));
        m_title->setText(tr("That was the controller pattern."));
        m_task->setText(tr("Start again any time from Help ▸ Tour."));
        m_lesson->clear();
        m_status->clear();
        return;
    }
    if (!running) {
        m_progress->setText(tr("%1 short lessons, about a minute each").arg(s.count));
        m_title->setText(tr("A guided tour of the controller pattern"));
        m_task->setText(tr("Each lesson asks you to do one thing in this window and shows what the controller did."));
        m_lesson->clear();
        m_status->clear();
        return;
    }
    m_progress->setText(tr("Lesson %1 of %2").arg(s.index + 1).arg(s.count));
    m_title->setText(s.lesson.title);
    m_task->setText(tr("<b>Do:</b> %1").arg(s.lesson.task.toHtmlEscaped()));
    m_lesson->setText(tr("<b>What it shows:</b> %1").arg(s.lesson.lesson.toHtmlEscaped()));
    m_status->setText(s.done ? tr("✓ Done — that is what happened. Next (Alt+N) when you are ready.")
                             : tr("Waiting for you to do it… (or Next to skip)"));
    m_status->setStyleSheet(s.done ? QStringLiteral("color: #2e7d32; font-weight: bold;") : QString());
    m_next->setText(s.index + 1 == s.count ? tr("&Finish") : tr("&Next"));
}

} // namespace opbench::ui
