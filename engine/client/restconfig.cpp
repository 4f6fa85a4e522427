// SPDX-License-Identifier: Apache-2.0
#include "engine/client/restconfig.h"

#include "engine/client/inclusterconfig.h"
#include "engine/client/kubeconfig.h"

#include <QDir>
#include <QFileInfo>

namespace opbench {

Expected<RestConfig> loadConfig(const QString &kubeconfigPath, const QString &context, Clock *clock)
{
    const bool implicit = kubeconfigPath.isEmpty() && qEnvironmentVariableIsEmpty("KUBECONFIG");
    if (implicit && context.isEmpty() && !qEnvironmentVariableIsEmpty("KUBERNETES_SERVICE_HOST")) {
        Expected<RestConfig> inCluster = loadInClusterConfig(clock);
        // As controller-runtime: a broken in-cluster setup falls back to ~/.kube/config.
        if (inCluster || !QFileInfo::exists(QDir::home().filePath(QStringLiteral(".kube/config"))))
            return inCluster;
    }
    Expected<Kubeconfig> kc = Kubeconfig::load(kubeconfigPath);
    if (!kc)
        return kc.error();
    return kc->restConfig(context, clock);
}
} // namespace opbench
