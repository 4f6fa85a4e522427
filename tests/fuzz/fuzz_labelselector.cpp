// SPDX-License-Identifier: Apache-2.0
// Label selector parser (engine/api/labelselectorparser via LabelSelector::parse / fromJson).
// Input: `selector` [ "\n" label lines `key=value` … ] [ "\n\n" JSON selector ].
// Invariants: toString() is canonical (parses back to an equal selector, and is a fixed point);
// the reparsed selector matches the same label sets; an exact-match requirement holds for every
// match; the JSON form converts to a selector whose string form parses back equal.
#include "engine/api/labelselector.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

#include <QJsonDocument>

using namespace opbench;

namespace {

void checkCanonical(const LabelSelector &sel, const QList<Labels> &labelSets, const QString &input)
{
    const QString canonical = sel.toString();
    const Expected<LabelSelector> again = LabelSelector::parse(canonical);
    FUZZ_CHECK(again.ok(), input + u'|' + canonical + u'|' + again.error().message());
    FUZZ_CHECK(*again == sel, input + u'|' + canonical + u'|' + again->toString());
    FUZZ_CHECK(again->toString() == canonical, input + u'|' + canonical);
    for (const Labels &labels : labelSets) {
        const bool m = sel.matches(labels);
        FUZZ_CHECK(m == again->matches(labels), input + u'|' + canonical);
        bool all = true;
        for (const LabelRequirement &r : sel.requirements())
            all = all && r.matches(labels);
        FUZZ_CHECK(m == all, input);
        if (m)
            for (const LabelRequirement &r : sel.requirements())
                if (auto v = sel.requiresExactMatch(r.key))
                    FUZZ_CHECK(labels.value(r.key) == *v && labels.contains(r.key), input + u'|' + r.key);
    }
}

} // namespace

OPBENCH_FUZZ_TARGET(labelselector)(const std::uint8_t *data, std::size_t size)
{
    const QString input = QString::fromUtf8(fuzz::bytes(data, size));
    const qsizetype jsonAt = input.indexOf(QLatin1String("\n\n"));
    const QString head = jsonAt >= 0 ? input.left(jsonAt) : input;
    const QStringList lines = head.split(u'\n');
    const QString selector = lines.value(0);
    QList<Labels> labelSets{Labels()};
    Labels labels;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype eq = lines[i].indexOf(u'=');
        if (eq >= 0)
            labels.insert(lines[i].left(eq), lines[i].mid(eq + 1));
        labelSets << labels;
    }

    const Expected<LabelSelector> sel = LabelSelector::parse(selector);
    if (sel) {
        checkCanonical(*sel, labelSets, selector);
        // A selector built from a label set matches it.
        for (const Labels &l : labelSets)
            FUZZ_CHECK(LabelSelector::fromLabels(l).matches(l), selector);
    } else {
        FUZZ_CHECK(!sel.error().message().isEmpty(), selector);
    }

    if (jsonAt >= 0) {
        const QJsonDocument doc = QJsonDocument::fromJson(input.mid(jsonAt + 2).toUtf8());
        if (doc.isObject()) {
            const Expected<LabelSelector> fromJson = LabelSelector::fromJson(doc.object());
            if (fromJson && !fromJson->matchesNothing())
                checkCanonical(*fromJson, labelSets, input.mid(jsonAt + 2));
        }
    }
    return 0;
}
