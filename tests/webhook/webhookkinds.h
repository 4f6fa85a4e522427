// SPDX-License-Identifier: Apache-2.0
#pragma once
// Typed kinds for the webhook suites: Guestbook v1 (a spoke) and v2 (the hub).

#include "engine/api/typed/customresource.h"
#include "engine/webhook/conversion.h"

namespace opbench::test {

struct GuestbookV2Spec
{
    QString title;
    int size = 0;
    QString tier;
    static void describe(Fields<GuestbookV2Spec> &f)
    {
        f.field("title", &GuestbookV2Spec::title);
        f.field("size", &GuestbookV2Spec::size);
        f.field("tier", &GuestbookV2Spec::tier);
    }
    friend bool operator==(const GuestbookV2Spec &, const GuestbookV2Spec &) = default;
};

class GuestbookV2 : public CustomResource<GuestbookV2, GuestbookV2Spec, void>, public Hub
{
public:
    using CustomResource::CustomResource;
    OPBENCH_KIND("webapp.example.org", "v2", "Guestbook", "guestbooks")
};

struct GuestbookV1Spec
{
    QString title;
    int replicas = 0;
    static void describe(Fields<GuestbookV1Spec> &f)
    {
        f.field("title", &GuestbookV1Spec::title);
        f.field("replicas", &GuestbookV1Spec::replicas);
    }
    friend bool operator==(const GuestbookV1Spec &, const GuestbookV1Spec &) = default;
};

class GuestbookV1 : public CustomResource<GuestbookV1, GuestbookV1Spec, void>
{
public:
    using CustomResource::CustomResource;
    OPBENCH_KIND("webapp.example.org", "v1", "Guestbook", "guestbooks")

    Expected<void> convertTo(GuestbookV2 &hub) const
    {
        if (spec.title == QLatin1String("unconvertible"))
            return Status::badRequest(QStringLiteral("title \"unconvertible\" has no v2 form"));
        hub.spec.title = spec.title;
        hub.spec.size = spec.replicas;
        return {};
    }
    Expected<void> convertFrom(const GuestbookV2 &hub)
    {
        spec.title = hub.spec.title;
        spec.replicas = hub.spec.size;
        return {};
    }
};

} // namespace opbench::test
