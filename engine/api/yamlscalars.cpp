// SPDX-License-Identifier: Apache-2.0
#include "engine/api/yamlscalars_p.h"

#include <QRegularExpression>
#include <QSet>

#include <charconv>
#include <cmath>
#include <limits>

namespace opbench::yamlscalars {

std::optional<qint64> parseYamlInt(QString s)
{
    s.remove(u'_');
    if (s.isEmpty())
        return std::nullopt;
    bool negative = false;
    if (s[0] == u'+' || s[0] == u'-') {
        negative = s[0] == u'-';
        s.remove(0, 1);
    }
    int base = 10;
    const QString lower = s.toLower();
    if (lower.startsWith(QLatin1String("0x"))) {
        base = 16;
        s.remove(0, 2);
    } else if (lower.startsWith(QLatin1String("0o"))) {
        base = 8;
        s.remove(0, 2);
    } else if (lower.startsWith(QLatin1String("0b"))) {
        base = 2;
        s.remove(0, 2);
    } else if (s.size() > 1 && s[0] == u'0') {
        base = 8;
        s.remove(0, 1);
    }
    if (s.isEmpty() || s[0] == u'+' || s[0] == u'-')
        return std::nullopt;
    bool ok = false;
    const qulonglong magnitude = s.toULongLong(&ok, base);
    if (!ok)
        return std::nullopt;
    if (negative) {
        if (magnitude > qulonglong(std::numeric_limits<qint64>::max()) + 1)
            return std::nullopt;
        return qint64(0 - magnitude);
    }
    if (magnitude > qulonglong(std::numeric_limits<qint64>::max()))
        return std::nullopt;
    return qint64(magnitude);
}

std::optional<double> parseYamlFloat(QString s)
{
    s.remove(u'_');
    static const QRegularExpression re(QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    if (!re.match(s).hasMatch())
        return std::nullopt;
    bool ok = false;
    const double d = s.toDouble(&ok);
    return ok && std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

bool isSpecialFloat(const QString &s)
{
    static const QSet<QString> specials{
        QStringLiteral(".inf"), QStringLiteral("+.inf"), QStringLiteral("-.inf"), QStringLiteral(".nan")};
    return specials.contains(s.toLower());
}

} // namespace opbench::yamlscalars
