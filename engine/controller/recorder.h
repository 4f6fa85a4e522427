// SPDX-License-Identifier: Apache-2.0
#pragma once
// Recorder: Kubernetes Events about an object in one call (controller-runtime's
// record.EventRecorder as a reconciler holds it):
//
//     recorder().normal(*book, "Ready", "guestbook is ready");
//     recorder().warning(*book, "InvalidSpec", "port 0 is out of range");
//
// A value handle onto the manager's EventRecorder (engine/manager/eventrecorder.h), which
// ControllerBuilder::complete() injects into the reconciler; writes are fire-and-forget (the
// recorder aggregates repeats and drops spam). A default-constructed Recorder records nothing.

#include "engine/api/object.h"

#include <concepts>
#include <functional>

namespace opbench {

class Recorder
{
public:
    /// Writes one event: the object, "Normal" or "Warning", the reason, the message.
    using Sink
        = std::function<void(const Object &object, const QString &type, const QString &reason, const QString &message)>;

    /// Records nothing.
    Recorder() = default;
    explicit Recorder(Sink sink)
        : m_sink(std::move(sink))
    { }

    /// A "Normal" event about `object` (an Object or any view with toObject()).
    void normal(const Object &object, const QString &reason, const QString &message) const
    {
        event(object, QStringLiteral("Normal"), reason, message);
    }
    /// A "Warning" event about `object`.
    void warning(const Object &object, const QString &reason, const QString &message) const
    {
        event(object, QStringLiteral("Warning"), reason, message);
    }
    void event(const Object &object, const QString &type, const QString &reason, const QString &message) const
    {
        if (m_sink)
            m_sink(object, type, reason, message);
    }

    template<class V>
    requires requires(const V &v)
    {
        {
            v.toObject()
            } -> std::convertible_to<Object>;
    }
    void normal(const V &view, const QString &reason, const QString &message) const
    {
        normal(view.toObject(), reason, message);
    }
    template<class V>
    requires requires(const V &v)
    {
        {
            v.toObject()
            } -> std::convertible_to<Object>;
    }
    void warning(const V &view, const QString &reason, const QString &message) const
    {
        warning(view.toObject(), reason, message);
    }

    /// False for a default-constructed Recorder.
    [[nodiscard]] bool isValid() const { return bool(m_sink); }

private:
    Sink m_sink;
};

} // namespace opbench
