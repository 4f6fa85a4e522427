// SPDX-License-Identifier: Apache-2.0
#include "engine/client/liststreamdecoder.h"

#include <cstring>

namespace opbench {

namespace {

/// Raw items are decoded once this many bytes of them are waiting.
constexpr qsizetype kBatchBytes = 256 * 1024;
/// A batch is a list document of its own: `{"items":[` + items + `]}`.
constexpr char kBatchStart[] = "{\"items\":[";

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

} // namespace

bool ListStreamDecoder::fail(const QString &why)
{
    if (!m_error)
        m_error = Status::transport(QString::fromLatin1(StatusReason::DecodeError), why);
    m_batch.clear();
    return false;
}

void ListStreamDecoder::endTopValue()
{
    if (m_key == "kind" && m_value.size() >= 2 && m_value.front() == '"' && m_value.back() == '"'
        && !m_value.contains('\\'))
        m_kind = QString::fromUtf8(m_value.mid(1, m_value.size() - 2));
    m_value.clear();
}

bool ListStreamDecoder::feed(QByteArrayView bytes)
{
    if (m_error)
        return false;
    const char *p = bytes.data();
    const qsizetype n = bytes.size();
    qsizetype i = 0;
    while (i < n) {
        bool ok = true;
        switch (m_where) {
        case Where::Start:
        case Where::TopKey:
        case Where::TopColon:
            ok = scanMemberName(p[i], i);
            break;
        case Where::ItemsStart:
        case Where::TopValue:
            ok = scanTopValue(p[i], i);
            break;
        case Where::Item:
            ok = scanItem(p, n, i);
            break;
        case Where::ItemsNext:
        case Where::TopAfterValue:
        case Where::Done:
            ok = scanSeparator(p[i], i);
            break;
        }
        if (!ok)
            return false;
    }
    m_offset += n;
    return true;
}

bool ListStreamDecoder::scanMemberName(char c, qsizetype &i)
{
    const auto at = [this, &i]() { return m_offset + i; };
    switch (m_where) {
    case Where::Start:
        if (isSpace(c)) {
            ++i;
            break;
        }
        if (c != '{')
            return fail(QStringLiteral("a list must be a JSON object (byte %1)").arg(at()));
        m_outside += c;
        m_where = Where::TopKey;
        m_keyDone = false;
        ++i;
        break;
    case Where::TopKey:
        if (!m_inString) {
            if (isSpace(c)) {
                ++i;
                break;
            }
            if (c == '}' && m_key.isNull()) { // "{}"
                m_outside += c;
                m_where = Where::Done;
                ++i;
                break;
            }
            if (c != '"')
                return fail(QStringLiteral("invalid JSON in the list at byte %1: expected a member name").arg(at()));
            m_inString = true;
            m_key = QByteArray("");
            m_outside += c;
            ++i;
            break;
        }
        m_outside += c;
        ++i;
        if (m_escape) {
            m_escape = false;
            m_key += c;
        } else if (c == '\\') {
            m_escape = true;
            m_key += c;
        } else if (c == '"') {
            m_inString = false;
            m_where = Where::TopColon;
        } else {
            m_key += c;
        }
        break;
    case Where::TopColon:
        ++i;
        if (isSpace(c))
            break;
        if (c != ':')
            return fail(QStringLiteral("invalid JSON in the list at byte %1: expected ':'").arg(at() - 1));
        m_outside += c;
        m_depth = 0;
        m_value.clear();
        m_where = m_key == "items" ? Where::ItemsStart : Where::TopValue;
        break;
    default:
        break;
    }
    return true;
}

bool ListStreamDecoder::scanTopValue(char c, qsizetype &i)
{
    const auto at = [this, &i]() { return m_offset + i; };
    switch (m_where) {
    case Where::ItemsStart:
        if (isSpace(c)) {
            ++i;
            break;
        }
        if (c == '[') {
            m_outside += c;
            m_sawItems = true;
            m_where = Where::ItemsNext;
            ++i;
            break;
        }
        m_where = Where::TopValue; // null or not an array: kept, judged at the end
        break;
    case Where::TopValue:
        // Any JSON value; it ends at ',' or '}' outside strings and containers.
        if (!m_inString && m_depth == 0 && (c == ',' || c == '}')) {
            endTopValue();
            m_outside += c;
            ++i;
            if (c == ',') {
                m_where = Where::TopKey;
            } else {
                m_where = Where::Done;
            }
            break;
        }
        m_outside += c;
        if (m_key == "kind")
            m_value += c;
        ++i;
        if (m_inString) {
            if (m_escape)
                m_escape = false;
            else if (c == '\\')
                m_escape = true;
            else if (c == '"')
                m_inString = false;
        } else if (c == '"') {
            m_inString = true;
        } else if (c == '{' || c == '[') {
            ++m_depth;
        } else if (c == '}' || c == ']') {
            if (--m_depth < 0)
                return fail(QStringLiteral("invalid JSON in the list at byte %1: unbalanced '%2'")
                                .arg(at() - 1)
                                .arg(QChar::fromLatin1(c)));
        }
        break;
    default:
        break;
    }
    return true;
}

bool ListStreamDecoder::scanItem(const char *p, qsizetype n, qsizetype &i)
{
    // The bulk of the body: find the item's end (strings skipped with memchr), then copy
    // the run into the batch at once.
    qsizetype j = i;
    while (j < n) {
        if (m_inString) {
            if (m_escape) {
                m_escape = false;
                ++j;
                continue;
            }
            const auto *quote = static_cast<const char *>(std::memchr(p + j, '"', size_t(n - j)));
            const qsizetype stop = quote ? quote - p : n;
            const auto *slash = static_cast<const char *>(std::memchr(p + j, '\\', size_t(stop - j)));
            if (slash) {
                m_escape = true;
                j = slash - p + 1;
            } else if (quote) {
                m_inString = false;
                j = stop + 1;
            } else {
                j = n;
            }
            continue;
        }
        const char d = p[j++];
        if (d == '"') {
            m_inString = true;
        } else if (d == '{' || d == '[') {
            ++m_depth;
        } else if ((d == '}' || d == ']') && --m_depth == 0) {
            break;
        }
    }
    m_batch.append(p + i, j - i);
    i = j;
    if (m_depth == 0) {
        ++m_batchItems;
        m_where = Where::ItemsNext;
        if (m_batch.size() >= kBatchBytes)
            flushBatch(false);
        if (m_error)
            return false;
    }
    return true;
}

bool ListStreamDecoder::scanSeparator(char c, qsizetype &i)
{
    const auto at = [this, &i]() { return m_offset + i; };
    switch (m_where) {
    case Where::ItemsNext:
        ++i;
        if (isSpace(c) || c == ',')
            break;
        if (c == ']') {
            m_outside += c;
            m_where = Where::TopAfterValue;
            break;
        }
        if (c != '{')
            return fail(QStringLiteral("a list item is not an object (byte %1)").arg(at() - 1));
        if (m_batch.isEmpty())
            m_batch.append(kBatchStart); // into the capacity the last batch left
        else if (m_batchItems > 0)
            m_batch += ',';
        m_batch += '{';
        m_depth = 1;
        m_where = Where::Item;
        break;
    case Where::TopAfterValue:
        ++i;
        if (isSpace(c))
            break;
        if (c == ',') {
            m_outside += c;
            m_where = Where::TopKey;
        } else if (c == '}') {
            m_outside += c;
            m_where = Where::Done;
        } else {
            return fail(QStringLiteral("invalid JSON in the list at byte %1: expected ',' or '}'").arg(at() - 1));
        }
        break;
    case Where::Done:
        ++i;
        if (!isSpace(c))
            return fail(QStringLiteral("invalid JSON in the list at byte %1: bytes after the document").arg(at() - 1));
        break;
    default:
        break;
    }
    return true;
}

void ListStreamDecoder::flushBatch(bool force)
{
    if (m_batchItems == 0)
        return;
    // Built-in list items often omit their kind: it comes from "<Kind>List", so items wait for
    // the list's kind (which the API server writes first) unless the list has ended.
    if (m_kind.isEmpty() && !force)
        return;
    const QString itemKind = m_kind.endsWith(QLatin1String("List")) ? m_kind.chopped(4) : QString();
    m_batch.append("]}");
    m_batchItems = 0;
    Expected<Object::List> part = Object::parseList(m_batch, m_apiVersion, itemKind, m_strip);
    // Emptied, not freed: every batch of the page reuses one buffer (a fresh 256 KB one per
    // batch was a fresh mapping, its pages faulted in each time).
    m_batch.truncate(0);
    if (!part) {
        fail(QStringLiteral("list item near byte %1: %2").arg(m_offset).arg(part.error().message()));
        return;
    }
    m_list.items.append(std::move(part->items));
}

Expected<Object::List> ListStreamDecoder::finish()
{
    if (!m_error && m_where != Where::Done)
        fail(QStringLiteral("the list ended early, after %1 bytes").arg(m_offset));
    if (m_error)
        return *m_error;
    // Everything outside the items, decoded once: kind (when it needed unescaping) and metadata.
    Expected<Object::List> outside = Object::parseList(m_outside, m_apiVersion, {}, m_strip);
    if (!outside)
        return outside.error();
    if (m_kind.isEmpty())
        m_kind = outside->kind;
    flushBatch(true);
    if (m_error)
        return *m_error;
    outside->items = std::move(m_list.items);
    return std::move(*outside);
}

} // namespace opbench
