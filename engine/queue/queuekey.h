// SPDX-License-Identifier: Apache-2.0
#pragma once
// QueueKey: what a work queue holds. The controller's Request (namespace + name of the object to
// reconcile); a queue of non-object work uses an empty namespace and any string as the name.

#include <QHashFunctions>
#include <QString>

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
    friend bool operator==(const QueueKey &, const QueueKey &) = default;
    friend bool operator<(const QueueKey &a, const QueueKey &b)
    {
        return a.ns != b.ns ? a.ns < b.ns : a.name < b.name;
    }
};

inline size_t qHash(const QueueKey &k, size_t seed = 0) noexcept
{
    return qHashMulti(seed, k.ns, k.name);
}

} // namespace opbench
