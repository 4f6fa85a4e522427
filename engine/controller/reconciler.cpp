// SPDX-License-Identifier: Apache-2.0
#include "engine/controller/reconciler.h"

#include <QtGlobal>

namespace opbench {

ReconcileOutcome ignoreNotFound(const Status &error)
{
    if (isNotFound(error))
        return Result{};
    return error;
}

ReconcileOutcome requeueOnConflict(const Status &error)
{
    if (isConflict(error) || isAlreadyExists(error)) {
        Result r;
        r.requeue = true;
        return r;
    }
    return error;
}

Client &Reconciler::client() const
{
    if (!m_client)
        qFatal("Reconciler::client(): no client was injected; build the controller with "
               "ControllerBuilder(manager)...complete(reconciler), or call inject() first");
    return *m_client;
}

} // namespace opbench
