// SPDX-License-Identifier: Apache-2.0
#pragma once
// InfoDock: a dock widget whose content starts with an ⓘ button; the button unfolds a short
// "what you are seeing" explanation for learners (gui.md "Learners"). The content scrolls when
// the dock is smaller than it, so no panel forces the window taller than the screen.

#include <QDockWidget>

class QLabel;
class QToolButton;

namespace opbench::ui {

class InfoDock : public QDockWidget
{
    Q_OBJECT
public:
    /// `objectName` is used for saving the dock's state; `explanation` is plain text.
    InfoDock(const QString &title, const QString &objectName, const QString &explanation, QWidget *parent = nullptr);

    /// Puts `content` below the ⓘ row (the dock takes ownership).
    void setContent(QWidget *content);
    QToolButton *infoButton() const { return m_infoButton; }
    QLabel *explanationLabel() const { return m_explanation; }

private:
    QWidget *m_body;
    QToolButton *m_infoButton;
    QLabel *m_explanation;
};

/// A centred, honest placeholder: "<what> is not available yet" and why.
QWidget *makeUnavailableLabel(const QString &text, QWidget *parent = nullptr);

} // namespace opbench::ui
