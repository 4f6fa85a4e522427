// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/objectpanel.h"

#include "ui/yamldiff.h"
#include "ui/yamlhighlighter.h"

#include "engine/api/yamlcodec.h"

#include <QCheckBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace opbench::ui {

namespace {

QPlainTextEdit *makeCodeView(QWidget *parent)
{
    auto *view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

QString yamlOf(const Object &o) { return o.isNull() ? QString() : QString::fromUtf8(jsonToYaml(o.json())); }

QString changeName(CacheChange::Type t)
{
    switch (t) {
    case CacheChange::Type::Added:
        return QStringLiteral("ADDED");
    case CacheChange::Type::Modified:
        return QStringLiteral("MODIFIED");
    case CacheChange::Type::Deleted:
        return QStringLiteral("DELETED");
    }
    return {};
}

} // namespace

ObjectPanel::ObjectPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(tr("Select an object in the cache tree."), this))
    , m_tabs(new QTabWidget(this))
    , m_yaml(makeCodeView(m_tabs))
    , m_diff(makeCodeView(m_tabs))
    , m_hideNoise(new QCheckBox(tr("Hide noise"), this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_versionLabel(new QLabel(this))
{
    new YamlHighlighter(m_yaml->document());
    new YamlDiffHighlighter(m_diff->document());
    m_hideNoise->setObjectName(QStringLiteral("objectHideNoise"));
    m_hideNoise->setChecked(true);
    m_hideNoise->setToolTip(tr("Hide resourceVersion, managedFields, generation, uid and creationTimestamp in the "
                               "diff"));
    m_tabs->addTab(m_yaml, tr("YAML"));
    m_tabs->addTab(m_diff, tr("Diff vs previous"));
    m_slider->setEnabled(false);
    m_slider->setToolTip(tr("Time travel: move back through the versions the informer saw"));
    m_slider->setAccessibleName(tr("Object version"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *sliderRow = new QHBoxLayout;
    sliderRow->addWidget(new QLabel(tr("History:"), this));
    sliderRow->addWidget(m_slider, 1);
    sliderRow->addWidget(m_versionLabel);
    sliderRow->addWidget(m_hideNoise);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(sliderRow);
    connect(m_slider, &QSlider::valueChanged, this, &ObjectPanel::showVersion);
    connect(m_hideNoise, &QCheckBox::toggled, this, [this] { showVersion(m_slider->value()); });
}

void ObjectPanel::clear()
{
    m_versions = {};
    m_title->setText(tr("Select an object in the cache tree."));
    m_yaml->clear();
    m_diff->clear();
    m_slider->setEnabled(false);
    m_versionLabel->clear();
}

void ObjectPanel::showVersions(const ObjectVersions &versions)
{
    const bool sameObject = versions.kind == m_versions.kind && versions.key == m_versions.key;
    const bool atNewest = !sameObject || m_slider->value() == m_slider->maximum();
    const int keep = m_slider->value();
    m_versions = versions;
    m_title->setText(QStringLiteral("<b>%1</b> %2%3")
                         .arg(versions.kind, versions.key.toHtmlEscaped(),
                             versions.current.isNull() ? tr(" — deleted") : QString()));
    const int n = int(versions.changes.size());
    const QSignalBlocker block(m_slider);
    m_slider->setRange(0, qMax(0, n - 1));
    m_slider->setEnabled(n > 1);
    m_slider->setValue(atNewest ? qMax(0, n - 1) : qMin(keep, n - 1));
    showVersion(m_slider->value());
}

void ObjectPanel::showVersion(int index)
{
    const auto &changes = m_versions.changes;
    if (index < 0 || index >= changes.size()) {
        // No recorded history (older than the informer's window): show the current object.
        m_yaml->setPlainText(yamlOf(m_versions.current));
        m_diff->setPlainText(tr("No earlier version recorded."));
        m_versionLabel->setText(tr("rv %1").arg(m_versions.current.resourceVersion()));
        return;
    }
    const CacheChange &c = changes.at(index);
    const Object shown = c.type == CacheChange::Type::Deleted ? c.oldObject : c.newObject;
    const int yScroll = m_yaml->verticalScrollBar() ? m_yaml->verticalScrollBar()->value() : 0;
    m_yaml->setPlainText(yamlOf(shown));
    m_yaml->verticalScrollBar()->setValue(yScroll);
    if (c.oldObject.isNull() || c.type == CacheChange::Type::Deleted) {
        m_diff->setPlainText(c.type == CacheChange::Type::Deleted
                ? tr("Deleted at resourceVersion %1.").arg(c.resourceVersion)
                : tr("First version (ADDED): nothing to compare with."));
    } else {
        const QStringList diff = yamlDiff(c.oldObject.json(), c.newObject.json(), m_hideNoise->isChecked());
        const bool same = std::none_of(
            diff.cbegin(), diff.cend(), [](const QString &l) { return l.startsWith(u'+') || l.startsWith(u'-'); });
        m_diff->setPlainText(
            same ? tr("# only noise fields changed (untick \"Hide noise\" to see them)") : diff.join(u'\n'));
    }
    m_versionLabel->setText(
        tr("%1/%2 · %3 · rv %4 · %5")
            .arg(index + 1)
            .arg(changes.size())
            .arg(changeName(c.type), c.resourceVersion, c.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"))));
}

} // namespace opbench::ui
