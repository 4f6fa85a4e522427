// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/clientoptions.h"

namespace opbench {

void MatchingLabels::applyTo(CacheListOptions &o) const
{
    const LabelSelector selector = LabelSelector::fromLabels(m_labels);
    for (const LabelRequirement &r : selector.requirements())
        o.labelSelector = o.labelSelector.with(r);
}

void MatchingLabelsSelector::applyTo(CacheListOptions &o) const
{
    if (m_selector.matchesNothing()) {
        o.labelSelector = m_selector;
        return;
    }
    for (const LabelRequirement &r : m_selector.requirements())
        o.labelSelector = o.labelSelector.with(r);
}

void MatchingFields::applyTo(CacheListOptions &o) const
{
    QStringList terms;
    for (const FieldRequirement &r : o.fieldSelector.requirements())
        terms << r.toString();
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        terms << it.key() + u'=' + FieldSelector::escapeValue(it.value());
    // Escaped terms always parse; the selector is canonical (sorted) whatever the hash order.
    if (Expected<FieldSelector> parsed = FieldSelector::parse(terms.join(u',')))
        o.fieldSelector = *parsed;
}

} // namespace opbench
