// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cause chips: the short label of each reason a key was queued, as the lists show it (gui.md
// "cause chips": `watch MODIFIED MyApplication/default/web rv 41`, `owner ← Deployment/default/web`,
// `retry 3 (error)`, `after 30s`, `manual`). The full Cause::describe() text goes in tool tips.

#include "engine/queue/cause.h"

#include <QColor>
#include <QStringList>
#include <QVariantList>

namespace opbench::ui {

/// Item roles of a column that shows cause chips (ChipsDelegate paints them).
enum CauseChipRoles {
    CauseChipsRole = Qt::UserRole + 110, ///< QStringList: one label per chip
    CauseChipColoursRole,                ///< QVariantList of QColor, parallel to the labels
};

/// The chip label of one cause. Objects in namespace `ns` (the reconciled key's) are named
/// without it: "owner ← Deployment/web" for the reconcile of "default/web".
QString causeChipText(const Cause &cause, const QString &ns = {});
/// The chip colour of one cause: amber for retries, blue for requeue-after, neutral otherwise.
QColor causeChipColour(const Cause &cause);
/// The chips of a merged cause list: causes that read the same are one chip ("… ×3"), plus
/// "+N more" when the queue dropped some.
QStringList causeChips(const CauseList &causes, const QString &ns = {});
QVariantList causeChipColours(const CauseList &causes, const QString &ns = {});
/// Every cause's full text, one per line (the tool tip), with a line for dropped ones.
QString causeFullText(const CauseList &causes);

} // namespace opbench::ui
