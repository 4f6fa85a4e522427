// SPDX-License-Identifier: Apache-2.0
#pragma once
// DeltaSink: what a Reflector feeds. The Informer implements it; tests can feed it directly.

#include "engine/api/object.h"

namespace opbench {

class DeltaSink
{
public:
    virtual ~DeltaSink() = default;
    /// A complete list (initial sync or relist) at resourceVersion `rv`.
    virtual void replaceAll(const QList<Object> &items, const QString &rv) = 0;
    virtual void added(const Object &obj) = 0;
    virtual void modified(const Object &obj) = 0;
    virtual void deleted(const Object &obj) = 0;
    /// A BOOKMARK: nothing changed up to `rv`.
    virtual void bookmark(const QString &rv) = 0;
};

} // namespace opbench
