// SPDX-License-Identifier: Apache-2.0
// Memcached (cache.example.com/v1alpha1), the Operator SDK tutorial's kind, as C++ types: the one
// source of truth (the CRD is generated from them: `memcached-operator --print-crd`).
#pragma once

#include <opbench/opbench.h>

namespace memcached {

struct MemcachedSpec
{
    int size = 0;
    int containerPort = 0;
    static void describe(opbench::Fields<MemcachedSpec> &f)
    {
        f.field("size", &MemcachedSpec::size).minimum(1).maximum(3).description("Instances to deploy.");
        f.field("containerPort", &MemcachedSpec::containerPort).description("Port of the Memcached container.");
    }
    friend bool operator==(const MemcachedSpec &, const MemcachedSpec &) = default;
};

struct MemcachedStatus
{
    QList<opbench::Condition> conditions;
    static void describe(opbench::Fields<MemcachedStatus> &f) { f.field("conditions", &MemcachedStatus::conditions); }
    friend bool operator==(const MemcachedStatus &, const MemcachedStatus &) = default;
};

class Memcached : public opbench::CustomResource<Memcached, MemcachedSpec, MemcachedStatus>
{
public:
    using CustomResource::CustomResource;
    OPBENCH_KIND("cache.example.com", "v1alpha1", "Memcached", "memcacheds")
};

} // namespace memcached
