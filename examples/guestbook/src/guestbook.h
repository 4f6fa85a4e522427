// SPDX-License-Identifier: Apache-2.0
// Guestbook (webapp.example.org/v1) as a typed view.
#pragma once

#include <opbench/opbench.h>

#include <QJsonArray>

namespace guestbook {

inline const opbench::GroupVersionKind kGuestbookGvk{
    QStringLiteral("webapp.example.org"), QStringLiteral("v1"), QStringLiteral("Guestbook")};
/// The finalizer that removes a guestbook's entry from the namespace's registry ConfigMap.
inline QString registryFinalizer() { return QStringLiteral("webapp.example.org/registry"); }
/// The ConfigMap (not owned by any guestbook) listing every guestbook of a namespace.
inline QString registryName() { return QStringLiteral("guestbook-registry"); }

class Guestbook : public opbench::ObjectView
{
public:
    Guestbook()
        : ObjectView(kGuestbookGvk.apiVersion(), kGuestbookGvk.kind)
    { }
    explicit Guestbook(const opbench::Object &object)
        : ObjectView(object)
    { }

    QString title() const { return stringAt({"spec", "title"}); }
    void setTitle(const QString &t) { setAt({"spec", "title"}, t); }
    QStringList entries() const
    {
        QStringList out;
        for (const QJsonValue &v : at({"spec", "entries"}).toArray())
            out.append(v.toString());
        return out;
    }
    void setEntries(const QStringList &entries) { setAt({"spec", "entries"}, QJsonArray::fromStringList(entries)); }
    /// spec.port (80 when absent).
    int port() const { return int(intAt({"spec", "port"}, 80)); }
    void setPort(int port) { setAt({"spec", "port"}, port); }
    qint64 generation() const { return intAt({"metadata", "generation"}); }

    QString phase() const { return stringAt({"status", "phase"}); }
    int statusEntries() const { return int(intAt({"status", "entries"})); }
    qint64 observedGeneration() const { return intAt({"status", "observedGeneration"}); }
    void setStatus(const QString &phase, int entries, qint64 observedGeneration)
    {
        setAt({"status", "phase"}, phase);
        setAt({"status", "entries"}, entries);
        setAt({"status", "observedGeneration"}, observedGeneration);
    }
};

} // namespace guestbook
