// SPDX-License-Identifier: Apache-2.0
#include "engine/client/restconfig.h"

#include "engine/client/inclusterconfig.h"
#include "engine/client/kubeconfig.h"

#include <QDir>

namespace opbench {

Expected<RestConfig> loadConfig(const QString &kubeconfigPath, const QString &context, Clock *clock)
{
    if (kubeconfigPath.isEmpty() && qEnvironmentVariableIsEmpty("KUBECONFIG")
        && !qEnvironmentVariableIsEmpty("KUBERNETES_SERVICE_HOST") && context.isEmpty())
        return loadInClusterConfig(clock);
    Expected<Kubeconfig> kc = Kubeconfig::load(kubeconfigPath);
    if (!kc)
        return kc.error();
    return kc->restConfig(context, clock);
}

} // namespace opbench
