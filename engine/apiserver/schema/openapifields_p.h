// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to openapischema.cpp: the field table of the built-in kinds (openapifields.cpp), in
// the type language openapischema.h describes.

#include <QList>

namespace opbench::apiserver::openapifields {

struct Field
{
    const char *name; // "!name": required
    const char *type;
    const char *description;
};

struct Definition
{
    const char *name; // with a prefix: core.Pod
    const char *description;
    QList<Field> fields;
    const char *group = nullptr; // set for kinds: group/version/kind
    const char *version = nullptr;
    const char *kind = nullptr;
};

/// Every definition, kinds and the types they refer to.
const QList<Definition> &definitions();

} // namespace opbench::apiserver::openapifields
