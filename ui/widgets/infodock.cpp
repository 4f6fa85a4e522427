// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/infodock.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace opbench::ui {

InfoDock::InfoDock(const QString &title, const QString &objectName, const QString &explanation, QWidget *parent)
    : QDockWidget(title, parent)
    , m_body(new QWidget(this))
    , m_infoButton(new QToolButton(m_body))
    , m_explanation(new QLabel(explanation, m_body))
{
    setObjectName(objectName);
    m_infoButton->setIcon(style()->standardIcon(QStyle::SP_MessageBoxInformation));
    m_infoButton->setIconSize(QSize(16, 16));
    m_infoButton->setText(QStringLiteral("ⓘ"));
    m_infoButton->setCheckable(true);
    m_infoButton->setAutoRaise(true);
    m_infoButton->setToolTip(tr("What am I looking at?"));
    m_infoButton->setAccessibleName(tr("Explain the %1 panel").arg(title));
    m_explanation->setWordWrap(true);
    m_explanation->setVisible(false);
    m_explanation->setFrameShape(QFrame::StyledPanel);
    m_explanation->setMargin(6);
    m_explanation->setBackgroundRole(QPalette::ToolTipBase);
    m_explanation->setForegroundRole(QPalette::ToolTipText);
    m_explanation->setAutoFillBackground(true);
    connect(m_infoButton, &QToolButton::toggled, m_explanation, &QLabel::setVisible);

    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_explanation, 1);
    header->addWidget(m_infoButton, 0, Qt::AlignTop | Qt::AlignRight);
    auto *layout = new QVBoxLayout(m_body);
    layout->setContentsMargins(4, 0, 4, 4);
    layout->setSpacing(2);
    layout->addLayout(header);
    setWidget(m_body);
}

void InfoDock::setContent(QWidget *content)
{
    // In a frameless scroll area that gives the panel all its room: a panel taller than its dock
    // scrolls instead of making the window taller than the screen (a create form or the Leadership
    // dock would otherwise hold the bottom area at ~320 px whatever the user does).
    auto *scroll = new QScrollArea(m_body);
    scroll->setObjectName(objectName() + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    static_cast<QVBoxLayout *>(m_body->layout())->addWidget(scroll, 1);
}

QWidget *makeUnavailableLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    label->setEnabled(false);
    return label;
}

} // namespace opbench::ui
