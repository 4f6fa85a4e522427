// SPDX-License-Identifier: Apache-2.0
#include "engine/api/timeformat.h"

#include <QRegularExpression>
#include <QTimeZone>

namespace opbench {

QString formatTimestamp(const QDateTime &t)
{
    if (!t.isValid())
        return {};
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) + QLatin1Char('Z');
}

QString formatMicroTime(const QDateTime &t)
{
    if (!t.isValid())
        return {};
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")) + QStringLiteral("000Z");
}

QDateTime parseTimestamp(const QString &text)
{
    static const QRegularExpression re(
        QStringLiteral("^(\\d{4})-(\\d{2})-(\\d{2})[Tt "
                       "](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(?:([Zz])|([+-])(\\d{2}):?(\\d{2}))$"));
    const QRegularExpressionMatch m = re.match(text.trimmed());
    if (!m.hasMatch())
        return {};
    const QDate date(m.captured(1).toInt(), m.captured(2).toInt(), m.captured(3).toInt());
    const QString fraction = m.captured(7);
    const int ms = fraction.isEmpty() ? 0 : (fraction + QStringLiteral("00")).left(3).toInt();
    const QTime time(m.captured(4).toInt(), m.captured(5).toInt(), m.captured(6).toInt(), ms);
    if (!date.isValid() || !time.isValid())
        return {};
    int offsetSeconds = 0;
    if (m.captured(8).isEmpty()) {
        offsetSeconds = (m.captured(10).toInt() * 3600 + m.captured(11).toInt() * 60)
            * (m.captured(9) == QLatin1String("-") ? -1 : 1);
    }
    QDateTime local(date, time, QTimeZone(offsetSeconds));
    return local.toUTC();
}

} // namespace opbench
