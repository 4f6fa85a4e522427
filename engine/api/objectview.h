// SPDX-License-Identifier: Apache-2.0
#pragma once
// ObjectView: the base of typed views (Deployment, Pod, Lease, Event, ConfigMap, NamespaceView).
//
// A view holds a copy of the object's JSON; getters read fields with Kubernetes defaults,
// setters edit the copy, and toObject() builds a new Object with every other field intact
// (unknown fields survive a read-modify-write). Every view also has the helpers a reconciler
// uses on any object: finalizers, isBeingDeleted(), generation() and status conditions.

#include "engine/api/condition.h"
#include "engine/api/objectmeta.h"

#include <QJsonObject>

#include <initializer_list>
#include <optional>

namespace opbench {

class Clock;

/// A container's name and image (spec.containers[] of a Pod or a pod template).
struct ContainerImage
{
    QString name;
    QString image;
    friend bool operator==(const ContainerImage &, const ContainerImage &) = default;
};

class ObjectView
{
public:
    /// The edited document.
    const QJsonObject &json() const { return m_json; }
    /// A new Object from the edited document.
    Object toObject() const { return Object::fromJson(m_json); }
    /// Edits metadata (name, labels, ownerReferences, finalizers, …) of this view.
    MetaEditor meta() { return MetaEditor(m_json); }
    QString name() const;
    QString namespaceName() const;
    Labels labels() const { return toStringMap(at({"metadata", "labels"}).toObject()); }
    Labels annotations() const { return toStringMap(at({"metadata", "annotations"}).toObject()); }
    QList<OwnerReference> ownerReferences() const;
    QString uid() const { return stringAt({"metadata", "uid"}); }
    QString resourceVersion() const { return stringAt({"metadata", "resourceVersion"}); }
    /// metadata.generation (0 when absent).
    qint64 generation() const { return intAt({"metadata", "generation"}); }
    /// True once deletion was requested (metadata.deletionTimestamp is set; finalizers hold it).
    bool isBeingDeleted() const { return !stringAt({"metadata", "deletionTimestamp"}).isEmpty(); }

    // Finalizers (controller-runtime's controllerutil): in memory only; the caller writes the object.
    bool hasFinalizer(const QString &finalizer) const;
    /// Adds `finalizer` when missing; true when the view changed.
    bool addFinalizer(const QString &finalizer) { return meta().addFinalizer(finalizer); }
    /// Removes `finalizer`; true when the view changed.
    bool removeFinalizer(const QString &finalizer) { return meta().removeFinalizer(finalizer); }

    // status.conditions (apimachinery's meta package), for kinds whose status has conditions.
    /// meta.SetStatusCondition (see setStatusCondition() in condition.h); the time of a transition
    /// is c.lastTransitionTime when given, else `clock`'s wall time (default: the system clock).
    bool setStatusCondition(const Condition &c, const Clock *clock = nullptr);
    std::optional<Condition> findStatusCondition(const QString &type) const;
    /// True when the condition of `type` exists with status "True".
    bool isStatusConditionTrue(const QString &type) const;

protected:
    explicit ObjectView(const Object &object)
        : m_json(object.json())
    { }
    ObjectView(const QString &apiVersion, const QString &kind);

    /// The value at `path`; undefined when any step is missing.
    QJsonValue at(std::initializer_list<const char *> path) const;
    /// Sets the value at `path`, creating intermediate objects; an undefined value removes it.
    void setAt(std::initializer_list<const char *> path, const QJsonValue &value);
    QString stringAt(std::initializer_list<const char *> path) const { return at(path).toString(); }
    qint64 intAt(std::initializer_list<const char *> path, qint64 fallback = 0) const;

    /// {k: "v"} objects ⇄ string maps (labels, selectors, ConfigMap data).
    static Labels toStringMap(const QJsonObject &o);
    static QJsonObject fromStringMap(const Labels &map);
    /// Reads spec.containers-like arrays.
    static QList<ContainerImage> containerImages(const QJsonArray &containers);
    /// Sets the image of container `name` in `containers`; returns false when there is none.
    static bool setContainerImage(QJsonArray &containers, const QString &name, const QString &image);

    QJsonObject m_json;
};

} // namespace opbench
