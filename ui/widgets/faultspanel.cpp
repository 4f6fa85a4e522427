// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/faultspanel.h"

#include "ui/widgets/infodock.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QVBoxLayout>

namespace opbench::ui {

FaultsPanel::FaultsPanel(QWidget *parent)
    : QWidget(parent)
    , m_controls(new QWidget(this))
    , m_realClusterNote(makeUnavailableLabel(tr("Fault injection needs the embedded cluster."), this))
{
    const std::pair<QString, QString> toggles[] = {
        {tr("Drop every watch every 5 s"), QStringLiteral("drop-watch:every=5s")},
        {tr("5 % of requests fail with 500"), QStringLiteral("error:rate=0.05,code=500")},
        {tr("10 % of requests throttled (429, Retry-After 1 s)"), QStringLiteral("throttle:rate=0.1,retry-after=1")},
        {tr("Add 50 ms latency to every request"), QStringLiteral("latency:ms=50")},
    };
    auto *layout = new QVBoxLayout(m_controls);
    layout->setContentsMargins(0, 0, 0, 0);
    for (const auto &[label, spec] : toggles) {
        auto *box = new QCheckBox(label, m_controls);
        box->setToolTip(spec);
        layout->addWidget(box);
        m_toggles.append({box, spec});
        connect(box, &QCheckBox::toggled, this, [this] { Q_EMIT faultsChanged(specs()); });
    }
    auto *buttons = new QHBoxLayout;
    auto *drop = new QPushButton(tr("Drop watches now"), m_controls);
    auto *compact = new QPushButton(tr("Compact history (410 on resume)"), m_controls);
    buttons->addWidget(drop);
    buttons->addWidget(compact);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(drop, &QPushButton::clicked, this, &FaultsPanel::dropWatchesRequested);
    connect(compact, &QPushButton::clicked, this, &FaultsPanel::compactRequested);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_controls);
    outer->addWidget(m_realClusterNote);
    setEmbedded(true);
}

QStringList FaultsPanel::specs() const
{
    QStringList out;
    for (const Toggle &t : m_toggles) {
        if (t.box->isChecked())
            out.append(t.spec);
    }
    return out;
}

void FaultsPanel::setEmbedded(bool embedded)
{
    m_controls->setVisible(embedded);
    m_realClusterNote->setVisible(!embedded);
}

} // namespace opbench::ui
