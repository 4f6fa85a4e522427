// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/badgedelegate.h"

#include "ui/models/objectbadge.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace opbench::ui {

namespace {
constexpr int PadX = 5;
constexpr int Gap = 6;
} // namespace

QString textAfterBadge(const QString &display, const QString &badge)
{
    if (!badge.isEmpty() && display.startsWith(badge))
        return display.mid(badge.size()).trimmed();
    return display;
}

void BadgeDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QString badge = index.data(BadgeTextRole).toString();
    if (badge.isEmpty()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString rest = textAfterBadge(opt.text, badge);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget); // background, selection
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget);
    const QFontMetrics fm(opt.font);
    const int pillWidth = fm.horizontalAdvance(badge) + 2 * PadX;
    const QRectF pill(textRect.left() + 1, textRect.center().y() - fm.height() / 2.0, pillWidth, fm.height());
    const QColor colour = index.data(BadgeColourRole).value<QColor>();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(pill, pill.height() / 2, pill.height() / 2);
    painter->fillPath(path, colour.isValid() ? colour : opt.palette.mid().color());
    painter->setPen(Qt::white);
    painter->setFont(opt.font);
    painter->drawText(pill, Qt::AlignCenter, badge);
    if (!rest.isEmpty()) {
        const bool selected = opt.state & QStyle::State_Selected;
        painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
        const QRect restRect(
            int(pill.right()) + Gap, textRect.top(), textRect.right() - int(pill.right()) - Gap, textRect.height());
        painter->drawText(
            restRect, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(rest, Qt::ElideRight, restRect.width()));
    }
    painter->restore();
}

QSize BadgeDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QString badge = index.data(BadgeTextRole).toString();
    if (!badge.isEmpty()) {
        const QFontMetrics fm(option.font);
        const QString rest = textAfterBadge(index.data().toString(), badge);
        const int want = fm.horizontalAdvance(badge) + 2 * PadX + Gap + fm.horizontalAdvance(rest) + 8;
        size.setWidth(std::max(size.width(), want));
    }
    return size;
}

} // namespace opbench::ui
