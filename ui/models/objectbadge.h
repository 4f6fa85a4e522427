// SPDX-License-Identifier: Apache-2.0
#pragma once
// ObjectBadge: the state a learner looks for on an object, as the trees show it in a coloured
// pill (gui.md "Visual language"): the phase of any object that reports `status.phase` (Running
// green, Pending grey, Failed red), `available/desired` on Deployments, and for a kind without a
// phase its `Ready` (else `Available`) condition: "Ready" green when True, its reason (or "Not
// Ready") red when False, grey when Unknown.

#include "engine/api/object.h"

#include <QColor>
#include <QString>

namespace opbench::ui {

/// Item roles a model exposes on the column that carries an object's badge (BadgeDelegate paints
/// them): the pill's text (QString) and colour (QColor).
enum BadgeRoles { BadgeTextRole = Qt::UserRole + 100, BadgeColourRole };

struct ObjectBadge
{
    QString text;  ///< "Running", "Failed", "2/3"; empty: no badge
    QColor colour; ///< the pill's colour
    QString toolTip;

    bool isEmpty() const { return text.isEmpty(); }
};

/// The badge of `object` of `kind` (empty when it reports nothing a badge shows).
ObjectBadge objectBadge(const QString &kind, const Object &object);

} // namespace opbench::ui
