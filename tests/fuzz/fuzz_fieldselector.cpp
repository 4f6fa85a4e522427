// SPDX-License-Identifier: Apache-2.0
// Field selector parser (engine/api/fieldselector): input `selector` [ "\n" field lines
// `field=value` … ]. Invariants: toString() parses back to an equal selector and is a fixed
// point; matching agrees before and after; any value escaped with escapeValue() parses back
// to itself; an exact-match requirement holds for every match.
#include "engine/api/fieldselector.h"
#include "tests/fuzz/fuzzsupport.h"
#include "tests/fuzz/fuzztarget.h"

using namespace opbench;

OPBENCH_FUZZ_TARGET(fieldselector)(const std::uint8_t *data, std::size_t size)
{
    const QString input = QString::fromUtf8(fuzz::bytes(data, size));
    const QStringList lines = input.split(u'\n');
    const QString selector = lines.value(0);
    QHash<QString, QString> fields;
    QList<QHash<QString, QString>> fieldSets{fields};
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype eq = lines[i].indexOf(u'=');
        if (eq >= 0)
            fields.insert(lines[i].left(eq), lines[i].mid(eq + 1));
        fieldSets << fields;
    }

    // Any value survives escaping.
    for (const QString &value : lines) {
        const Expected<FieldSelector> eq
            = FieldSelector::parse(QStringLiteral("metadata.name=") + FieldSelector::escapeValue(value));
        FUZZ_CHECK(eq.ok(), value + u'|' + eq.error().message());
        FUZZ_CHECK(eq->requirements().size() == 1 && eq->requirements().first().value == value, value);
        FUZZ_CHECK(eq->requiresExactMatch(QStringLiteral("metadata.name")) == value, value);
        FUZZ_CHECK(*eq == FieldSelector::equals(QStringLiteral("metadata.name"), value), value);
    }

    const Expected<FieldSelector> sel = FieldSelector::parse(selector);
    if (!sel) {
        FUZZ_CHECK(!sel.error().message().isEmpty(), selector);
        return 0;
    }
    const QString canonical = sel->toString();
    const Expected<FieldSelector> again = FieldSelector::parse(canonical);
    FUZZ_CHECK(again.ok(), selector + u'|' + canonical + u'|' + again.error().message());
    FUZZ_CHECK(again->toString() == canonical, selector + u'|' + canonical + u'|' + again->toString());
    FUZZ_CHECK(
        *again == *sel || again->requirements().size() == sel->requirements().size(), selector + u'|' + canonical);
    for (const auto &f : fieldSets) {
        const bool m = sel->matches(f);
        FUZZ_CHECK(m == again->matches(f), selector + u'|' + canonical);
        const bool viaLookup = sel->matches([&f](const QString &field) -> std::optional<QString> {
            if (f.contains(field))
                return f.value(field);
            return std::nullopt;
        });
        FUZZ_CHECK(m == viaLookup, selector);
        if (m)
            for (const FieldRequirement &r : sel->requirements())
                if (auto v = sel->requiresExactMatch(r.field))
                    FUZZ_CHECK(f.value(r.field) == *v, selector + u'|' + r.field);
    }
    return 0;
}
