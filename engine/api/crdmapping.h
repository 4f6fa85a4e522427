// SPDX-License-Identifier: Apache-2.0
#pragma once
// A custom resource's REST mapping read from its CustomResourceDefinition, so an operator
// registers its kind in one call instead of typing GVR, kind, plural, short names, scope and
// subresources by hand:
//
//   auto mappings = crdMappings(crdYaml, "config/crd/guestbooks.yaml");   // YAML or JSON
//   for (const ResourceMapping &m : *mappings) manager->cache()->mapper().add(m);
//
// From spec: group, names.{kind,listKind,plural,singular,shortNames,categories}, scope
// (Namespaced | Cluster), and per served version its subresources (status, scale). One mapping per
// served version, the storage version first. Errors name the source and the field:
// "config/crd/x.yaml: document 1: spec.names.plural: required".

#include "engine/api/expected.h"
#include "engine/api/restmapper.h"

#include <QJsonObject>
#include <QList>

namespace opbench {

/// The mappings of one CRD document (apiextensions.k8s.io/v1 CustomResourceDefinition).
Expected<QList<ResourceMapping>> crdMappings(const QJsonObject &crd, const QString &source);
/// Every CRD in `yaml` (one or more documents; other kinds are an error naming the document).
Expected<QList<ResourceMapping>> crdMappings(const QByteArray &yaml, const QString &source);
/// Reads and parses the file at `path` (the error names it when it cannot be read).
Expected<QList<ResourceMapping>> crdMappingsFromFile(const QString &path);

} // namespace opbench
