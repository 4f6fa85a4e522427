// SPDX-License-Identifier: Apache-2.0
#pragma once
// What createOrUpdate / createOrPatch did (controller-runtime's controllerutil.OperationResult),
// shared by the typed Client (client.h) and the Object helpers (clientutil.h).

#include "engine/api/expected.h"
#include "engine/api/object.h"

#include <functional>

namespace opbench {

/// What createOrUpdate / createOrPatch did.
enum class OperationResult : quint8 {
    Unchanged,         ///< "unchanged": nothing to write
    Created,           ///< "created"
    Updated,           ///< "updated" (createOrPatch: the non-status part was patched)
    UpdatedStatus,     ///< "updatedStatus": createOrPatch patched both the object and its status
    UpdatedStatusOnly, ///< "updatedStatusOnly": createOrPatch patched only the status
};
QString operationResultName(OperationResult r);

struct OperationOutcome
{
    OperationResult result = OperationResult::Unchanged;
    Object object; ///< the object as the server (or the cache, when unchanged) has it now
};

/// The typed Client's createOrUpdate result: what was done and the object as it is now.
template<class T> class TypedOutcome
{
public:
    TypedOutcome(OperationResult r, T obj)
        : result(r)
        , object(std::move(obj))
    { }
    OperationResult result;
    T object;
};

/// Edits the desired state into `obj` (the existing object, or the bare one passed in when it does
/// not exist) and returns the result; an error Status aborts the operation. It must not change
/// the name or namespace.
using MutateFn = std::function<Expected<Object>(const Object &obj)>;

} // namespace opbench
