// SPDX-License-Identifier: Apache-2.0
#pragma once
// BadgeDelegate: paints an item's badge (BadgeTextRole / BadgeColourRole) as a coloured pill,
// followed by the rest of its display text ("[Running] rv 41"). Items without a badge paint as
// usual.

#include <QStyledItemDelegate>

namespace opbench::ui {

class BadgeDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

/// The text after the badge: the display text without a leading copy of the badge text.
QString textAfterBadge(const QString &display, const QString &badge);

} // namespace opbench::ui
