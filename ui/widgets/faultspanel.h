// SPDX-License-Identifier: Apache-2.0
#pragma once
// FaultsPanel: fault injection toggles for the embedded cluster (dropped watches, error rate,
// throttling, latency) and one-shot actions. Emits the fault specs; the session applies them.

#include <QWidget>

class QCheckBox;

namespace opbench::ui {

class FaultsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit FaultsPanel(QWidget *parent = nullptr);

    /// The active fault specs (FaultSpec syntax, e.g. "latency:ms=50").
    QStringList specs() const;
    /// Enables the toggles (embedded cluster) or explains why they are off (real cluster).
    void setEmbedded(bool embedded);

Q_SIGNALS:
    void faultsChanged(const QStringList &specs);
    void dropWatchesRequested();
    void compactRequested();

private:
    struct Toggle
    {
        QCheckBox *box;
        QString spec;
    };
    QList<Toggle> m_toggles;
    QWidget *m_controls;
    QWidget *m_realClusterNote;
};

} // namespace opbench::ui
