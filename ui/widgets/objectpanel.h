// SPDX-License-Identifier: Apache-2.0
#pragma once
// ObjectPanel: the selected object as highlighted YAML, the YAML diff from its previous version
// (noise fields hidden unless asked), and a time-travel slider over the versions the informer
// recorded.

#include "ui/session/snapshots.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QSlider;
class QTabWidget;

namespace opbench::ui {

class ObjectPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ObjectPanel(QWidget *parent = nullptr);

    /// Shows `versions`; the slider goes to the newest version unless the user had moved it back
    /// on the same object.
    void showVersions(const opbench::workbench::ObjectVersions &versions);
    void clear();
    QPlainTextEdit *yamlView() const { return m_yaml; }
    /// "Diff vs previous": a YAML diff, noise fields hidden unless hideNoiseBox() is unticked.
    QPlainTextEdit *diffView() const { return m_diff; }
    QCheckBox *hideNoiseBox() const { return m_hideNoise; }
    QSlider *slider() const { return m_slider; }
    QString currentKey() const { return m_versions.key; }
    QString currentKind() const { return m_versions.kind; }

private:
    void showVersion(int index);

    ObjectVersions m_versions;
    QLabel *m_title;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_yaml;
    QPlainTextEdit *m_diff;
    QCheckBox *m_hideNoise;
    QSlider *m_slider;
    QLabel *m_versionLabel;
};

} // namespace opbench::ui
