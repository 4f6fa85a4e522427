// SPDX-License-Identifier: Apache-2.0
#include "engine/sdk/embeddedcluster.h"

namespace opbench {

namespace {

EmbeddedClusterFactory &factorySlot()
{
    static EmbeddedClusterFactory factory = nullptr;
    return factory;
}

} // namespace

void registerEmbeddedCluster(EmbeddedClusterFactory factory) { factorySlot() = factory; }

std::unique_ptr<EmbeddedCluster> makeEmbeddedCluster()
{
    const EmbeddedClusterFactory factory = factorySlot();
    return factory ? factory() : nullptr;
}

} // namespace opbench
