// SPDX-License-Identifier: Apache-2.0
#pragma once
// LeadershipPanel: the Leadership dock. Shows a LeadershipState (the Lease, this workbench's
// role, the headless operator and its log) and emits hand-off intents; it holds no logic. When
// the headless process left a recording, it offers it ("Open the headless run's recording"),
// which emits openRecordingRequested(path) for the replay view to open.

#include "ui/session/snapshots.h"

#include <QWidget>

class QFormLayout;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace opbench::ui {

class LeadershipPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LeadershipPanel(QWidget *parent = nullptr);

    /// Shows `state`; its log lines are appended to the log view (at most 2000 kept).
    void apply(const LeadershipState &state);
    /// "this workbench", "headless opbench-operator (pid 42)" or the raw identity; "nobody".
    static QString holderText(const LeadershipState &state);
    /// One line for the status bar: "leader: this workbench".
    static QString statusText(const LeadershipState &state);

    QLabel *holderLabel() const { return m_holder; }
    QLabel *roleLabel() const { return m_role; }
    QLabel *headlessLabel() const { return m_headless; }
    QPushButton *handOffButton() const { return m_handOff; }
    QPushButton *takeBackButton() const { return m_takeBack; }
    /// Shown once the headless run's recording is available.
    QPushButton *openRecordingButton() const { return m_openRecording; }
    QPlainTextEdit *logView() const { return m_log; }

Q_SIGNALS:
    /// Embedded cluster: start the headless process.
    void handOffRequested();
    /// Real cluster: apply the manifests with `image` (asked for in a prompt) and hand off.
    void clusterHandOffRequested(const QString &image);
    void takeBackRequested();
    /// Open the recording the headless operator made while it led (`path`: its --record file).
    void openRecordingRequested(const QString &path);

private:
    QLabel *addRow(QFormLayout *form, const QString &label, const QString &name);
    void applyButtons(const LeadershipState &state);
    void applyHeadless(const LeadershipState &state);
    void applyDeployment(const LeadershipState &state);
    void onHandOffClicked();

    QLabel *m_lease;
    QLabel *m_holder;
    QLabel *m_role;
    QLabel *m_acquired;
    QLabel *m_renewed;
    QLabel *m_duration;
    QLabel *m_transitions;
    QLabel *m_headless;
    QLabel *m_headlessCaption = nullptr; // "Headless operator" / "In-cluster operator"
    QPushButton *m_handOff;
    QPushButton *m_takeBack;
    QPushButton *m_openRecording;
    QString m_recordingPath; // the last state's offer
    QPlainTextEdit *m_log;
    bool m_clusterMode = false; // the last state's clusterHandOff
    QString m_defaultImage;     // the last state's defaultImage (the prompt's default)
};

} // namespace opbench::ui
