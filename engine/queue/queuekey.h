// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueKey: what a work queue holds. The controller's Request (namespace + name of the object to
// reconcile); a queue of non-object work uses an empty namespace and any string as the name.

#include <QHashFunctions>
#include <QString>

#include <cstring>

namespace opbench {

struct QueueKey
{
    QString ns;   ///< namespace; empty for cluster-scoped objects and plain string keys
    QString name; ///< object name, or the whole key for plain string keys

    /// "ns/name", or "name" when the namespace is empty (the client-go cache key).
    [[nodiscard]] QString toString() const { return ns.isEmpty() ? name : ns + u'/' + name; }
    /// Inverse of toString(): splits at the first '/'; no '/' gives an empty namespace.
    [[nodiscard]] static QueueKey fromString(const QString &key)
    {
        const qsizetype slash = key.indexOf(u'/');
        if (slash < 0)
            return {QString(), key};
        return {key.left(slash), key.mid(slash + 1)};
    }
    /// Equal namespace and name. Strings sharing their data (the usual case for a key handed back
    /// to the queue) compare without reading the characters.
    friend bool operator==(const QueueKey &a, const QueueKey &b) noexcept
    {
        return sameString(a.name, b.name) && sameString(a.ns, b.ns);
    }
    friend bool operator<(const QueueKey &a, const QueueKey &b) { return a.ns != b.ns ? a.ns < b.ns : a.name < b.name; }

private:
    static bool sameString(const QString &x, const QString &y) noexcept
    {
        return x.size() == y.size() && (x.constData() == y.constData() || x == y);
    }
};

namespace detail {
__extension__ typedef unsigned __int128 KeyHashWide;

inline quint64 keyHashMix(quint64 a, quint64 b) noexcept
{
    const KeyHashWide r = KeyHashWide(a) * b;
    return quint64(r) ^ quint64(r >> 64);
}

/// Folds the UTF-16 data of `s` into `h`, 8 bytes at a time.
inline quint64 keyHashString(quint64 h, const QString &s) noexcept
{
    const char *p = reinterpret_cast<const char *>(s.constData());
    size_t n = size_t(s.size()) * sizeof(QChar);
    h = keyHashMix(h ^ n, 0x9e3779b97f4a7c15ull);
    for (; n >= 8; n -= 8, p += 8) {
        quint64 w;
        std::memcpy(&w, p, 8);
        h = keyHashMix(h ^ w, 0xbf58476d1ce4e5b9ull);
    }
    if (n > 0) { // 2, 4 or 6 bytes: two (possibly overlapping) loads, no byte loop
        quint64 w;
        if (n >= 4) {
            quint32 lo, hi;
            std::memcpy(&lo, p, 4);
            std::memcpy(&hi, p + n - 4, 4);
            w = (quint64(hi) << 32) | lo;
        } else {
            quint16 lo;
            std::memcpy(&lo, p, 2);
            w = lo;
        }
        h = keyHashMix(h ^ w, 0x94d049bb133111ebull);
    }
    return h;
}
} // namespace detail

/// One pass over both strings (faster than combining two qHash(QString) calls; keys are hashed
/// on every queue operation).
inline size_t qHash(const QueueKey &k, size_t seed = 0) noexcept
{
    const quint64 h = detail::keyHashString(detail::keyHashString(quint64(seed) ^ 0x2545f4914f6cdd1dull, k.ns), k.name);
    return size_t(h ^ (h >> 29));
}

} // namespace opbench
