// SPDX-License-Identifier: Apache-2.0
#pragma once
// ResourceEventHandler: what an informer tells its listeners (client-go's
// ResourceEventHandler). Handlers run on the engine thread, in event order, one at a time.

#include "engine/api/object.h"

#include <functional>

namespace opbench {

class ResourceEventHandler
{
public:
    virtual ~ResourceEventHandler() = default;
    /// `isInInitialList`: the object came from the informer's first list (or, for a handler
    /// added late, from the cache's content at registration).
    virtual void onAdd(const Object &obj, bool isInInitialList) = 0;
    /// `oldObj` and `newObj` have the same resourceVersion on a resync.
    virtual void onUpdate(const Object &oldObj, const Object &newObj) = 0;
    /// `finalStateUnknown`: the deletion was noticed by a relist, so `obj` is the last state the
    /// cache knew (client-go's DeletedFinalStateUnknown tombstone).
    virtual void onDelete(const Object &obj, bool finalStateUnknown) = 0;
};

/// Adapter from functions; missing functions ignore the event.
class ResourceEventHandlerFuncs final : public ResourceEventHandler
{
public:
    std::function<void(const Object &, bool)> addFunc;
    std::function<void(const Object &, const Object &)> updateFunc;
    std::function<void(const Object &, bool)> deleteFunc;

    void onAdd(const Object &obj, bool initial) override
    {
        if (addFunc)
            addFunc(obj, initial);
    }
    void onUpdate(const Object &o, const Object &n) override
    {
        if (updateFunc)
            updateFunc(o, n);
    }
    void onDelete(const Object &obj, bool unknown) override
    {
        if (deleteFunc)
            deleteFunc(obj, unknown);
    }
};

} // namespace opbench
