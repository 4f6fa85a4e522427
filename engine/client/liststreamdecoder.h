// SPDX-License-Identifier: Apache-2.0
#pragma once
// ListStreamDecoder: decodes a list response ({"kind":…,"metadata":{…},"items":[…]}) while its
// body arrives, so the body is never held whole. A list at resourceVersion=0 comes back in one
// unpaginated response (10,000 Deployments ≈ 20 MB of JSON); decoded as it streams in, the
// client holds the decoded objects plus one batch of raw items (≤ 256 KB), not the body too.
//
// The scan finds top-level members and item boundaries (strings, escapes, nesting); complete
// items are decoded in batches by Object::parseList, with the list's kind as the items' default
// kind (built-in list items omit it). Everything outside "items" (kind, apiVersion, metadata) is
// kept and decoded at the end. Malformed input is an error naming the byte offset.

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <QByteArray>
#include <QString>

namespace opbench {

class ListStreamDecoder
{
public:
    ListStreamDecoder(QString itemApiVersion, bool stripManagedFields)
        : m_apiVersion(std::move(itemApiVersion))
        , m_strip(stripManagedFields)
    { }

    /// The next bytes of the body. Returns false once the body is known to be malformed.
    bool feed(QByteArrayView bytes);
    /// The whole list, after the last bytes (or the first error).
    Expected<Object::List> finish();

    /// Raw bytes held now (pending items and the document outside them), for tests.
    qsizetype bytesHeld() const { return m_batch.size() + m_outside.size(); }

private:
    enum class Where { Start, TopKey, TopColon, TopValue, TopAfterValue, ItemsStart, ItemsNext, Item, Done };

    bool fail(const QString &why);
    // feed()'s scan, one part of the document each: each consumes bytes at `i` (advancing it)
    // and returns false once the body is known to be malformed.
    bool scanMemberName(char c, qsizetype &i);               // Start, TopKey, TopColon
    bool scanTopValue(char c, qsizetype &i);                 // ItemsStart, TopValue
    bool scanItem(const char *p, qsizetype n, qsizetype &i); // Item: the bulk of the body
    bool scanSeparator(char c, qsizetype &i);                // ItemsNext, TopAfterValue, Done
    void flushBatch(bool force);
    void endTopValue();

    QString m_apiVersion;
    bool m_strip;
    Where m_where = Where::Start;
    qint64 m_offset = 0; // bytes fed so far
    int m_depth = 0;     // nesting inside the current top-level value or item
    bool m_inString = false;
    bool m_escape = false;
    QByteArray m_key; // the current top-level member's name
    bool m_keyDone = false;
    QByteArray m_outside; // the document without its items' contents
    QByteArray m_value;   // the current top-level value (for "kind")
    QByteArray m_batch;   // {"items":[ + the items scanned so far (the last maybe partial)
    int m_batchItems = 0;
    QString m_kind; // the list's kind, once seen
    bool m_sawItems = false;
    Object::List m_list;
    std::optional<Status> m_error;
};

} // namespace opbench
