// SPDX-License-Identifier: Apache-2.0
#pragma once
// ConnectDialog: "Connect to cluster…". Lists the embedded cluster and the contexts of
// KUBECONFIG / ~/.kube/config (or a file the user picks), checks the chosen context with a
// ConnectionProbe before accepting, shows failures in words and, when the MyApplication CRD is
// missing, offers to install it. selectedOptions() is what the workbench restarts with.

#include "ui/session/connectionprobe.h"
#include "ui/session/enginesession.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace opbench::ui {

class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    /// `kubeconfigPath` empty: KUBECONFIG, else ~/.kube/config. `preselect`: a context name, or
    /// empty for the embedded cluster.
    explicit ConnectDialog(
        const QString &kubeconfigPath = {}, const QString &preselect = {}, QWidget *parent = nullptr);

    /// The listed context names (the embedded cluster is listed first, as "").
    QStringList contextNames() const;
    /// Selects `context` ("" = embedded); false when it is not listed.
    bool selectContext(const QString &context);
    SessionOptions selectedOptions() const;
    /// Probes the selected context; accepts when it works (the embedded cluster always does).
    void connectSelected();
    /// Probes the selected context without accepting.
    void testSelected();
    void installCrd();

    QLabel *messageLabel() const { return m_message; }
    QPushButton *installCrdButton() const { return m_installCrd; }
    const ProbeResult &lastResult() const { return m_last; }

Q_SIGNALS:
    void probeFinished(const opbench::ui::ProbeResult &result);

private:
    void connectSignals();
    void loadContexts();
    void browse();
    void onProbeFinished(const ProbeResult &result);
    void setBusy(bool busy, const QString &text);

    ConnectionProbe *m_probe;
    QString m_path;
    QLineEdit *m_pathEdit;
    QTreeWidget *m_list;
    QLabel *m_message;
    QPushButton *m_test;
    QPushButton *m_installCrd;
    QPushButton *m_connect;
    ProbeResult m_last;
    bool m_acceptOnSuccess = false;
};

} // namespace opbench::ui
