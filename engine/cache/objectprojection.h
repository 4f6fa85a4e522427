// SPDX-License-Identifier: Apache-2.0
#pragma once
// How a kind is cached and watched: its full objects, or their metadata only
// (controller-runtime's projectAsNormal / projectAsMetadata; builder.OnlyMetadata).

namespace opbench {

enum class ObjectProjection {
    Normal,   ///< full objects (the default)
    Metadata, ///< meta.k8s.io/v1 PartialObjectMetadata lists and watches; the store keeps the
              ///< kind's apiVersion/kind and metadata only (InformerOptions::metadataOnly)
};

} // namespace opbench
