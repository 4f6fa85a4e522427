// SPDX-License-Identifier: Apache-2.0
#pragma once
// ChipsDelegate: paints an item's cause chips (CauseChipsRole / CauseChipColoursRole) as rounded
// labels side by side. Chips that do not fit collapse into a final "+N" chip (a first chip wider
// than the column is elided); the item's tool tip carries the full text.

#include <QStyledItemDelegate>

namespace opbench::ui {

class ChipsDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

/// How many of `chips` fit in `width` pixels with `fm` (the rest collapse into a "+N" chip).
int chipsThatFit(const QStringList &chips, const QFontMetrics &fm, int width);

} // namespace opbench::ui
