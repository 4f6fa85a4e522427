// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/chipsdelegate.h"

#include "ui/models/causechips.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace opbench::ui {

namespace {
constexpr int PadX = 5;
constexpr int Gap = 4;

/// Chips are set a little smaller than the list's text.
QFont chipFont(QFont f)
{
    f.setPointSizeF(f.pointSizeF() * 0.9);
    return f;
}

int chipWidth(const QFontMetrics &fm, const QString &text) { return fm.horizontalAdvance(text) + 2 * PadX; }
} // namespace

int chipsThatFit(const QStringList &chips, const QFontMetrics &fm, int width)
{
    int x = 0;
    for (qsizetype i = 0; i < chips.size(); ++i) {
        const int w = chipWidth(fm, chips.at(i));
        const bool last = i == chips.size() - 1;
        // Room for this chip, and (unless it is the last) for a "+N" chip after it.
        const int reserve = last ? 0 : Gap + chipWidth(fm, QStringLiteral("+%1").arg(chips.size() - i - 1));
        if (x + w + reserve > width)
            return int(i);
        x += w + Gap;
    }
    return int(chips.size());
}

void ChipsDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QStringList chips = index.data(CauseChipsRole).toStringList();
    if (chips.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    const QRect area = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const QVariantList colours = index.data(CauseChipColoursRole).toList();
    const QFont font = chipFont(opt.font);
    const QFontMetrics fm(font);
    int shown = chipsThatFit(chips, fm, area.width());
    QStringList labels = chips.mid(0, shown);
    if (shown == 0) { // not even the first chip fits: it shrinks (elided), the rest fold into "+N"
        const int rest = chips.size() > 1 ? chipWidth(fm, QStringLiteral("+%1").arg(chips.size() - 1)) + Gap : 0;
        labels.append(fm.elidedText(chips.first(), Qt::ElideRight, std::max(0, area.width() - rest - 2 * PadX - 2)));
        shown = 1;
    }
    QList<QColor> fills;
    for (int i = 0; i < shown; ++i)
        fills.append(colours.value(i).value<QColor>());
    if (shown < chips.size()) {
        labels.append(QStringLiteral("+%1").arg(chips.size() - shown));
        fills.append(QColor(0x75, 0x75, 0x75));
    }
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setClipRect(area);
    painter->setFont(font);
    qreal x = area.left() + 1;
    const qreal h = std::min<qreal>(fm.height() + 2, area.height() - 2);
    const qreal y = area.center().y() - h / 2.0 + 0.5;
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QRectF chip(x, y, chipWidth(fm, labels.at(i)), h);
        QPainterPath path;
        path.addRoundedRect(chip, 4, 4);
        QColor fill = fills.at(i).isValid() ? fills.at(i) : QColor(0x54, 0x6e, 0x7a);
        painter->fillPath(path, fill);
        painter->setPen(Qt::white);
        painter->drawText(chip, Qt::AlignCenter, labels.at(i));
        x = chip.right() + Gap;
    }
    painter->restore();
}

QSize ChipsDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QStringList chips = index.data(CauseChipsRole).toStringList();
    const QFontMetrics fm(chipFont(option.font));
    int w = 8;
    for (const QString &c : chips)
        w += chipWidth(fm, c) + Gap;
    size.setWidth(std::max(size.width(), w));
    size.setHeight(std::max(size.height(), fm.height() + 6));
    return size;
}

} // namespace opbench::ui
