// SPDX-License-Identifier: Apache-2.0
// Guestbook (webapp.example.org/v1): the one source of truth. The CRD is generated from these
// types (`guestbook-operator --print-crd`, or `opbench-gen crd guestbook-operator`).
#pragma once

#include <opbench/opbench.h>

namespace guestbook {

struct GuestbookSpec
{
    QString title;
    QStringList entries;
    int port = 80;
    static void describe(opbench::Fields<GuestbookSpec> &f)
    {
        f.field("title", &GuestbookSpec::title).required().minLength(1);
        f.field("entries", &GuestbookSpec::entries);
        f.field("port", &GuestbookSpec::port).minimum(1).maximum(65535);
    }
    friend bool operator==(const GuestbookSpec &, const GuestbookSpec &) = default;
};

struct GuestbookStatus
{
    QString phase;
    int entries = 0;
    qint64 observedGeneration = 0;
    static void describe(opbench::Fields<GuestbookStatus> &f)
    {
        f.field("phase", &GuestbookStatus::phase);
        f.field("entries", &GuestbookStatus::entries);
        f.field("observedGeneration", &GuestbookStatus::observedGeneration);
    }
    friend bool operator==(const GuestbookStatus &, const GuestbookStatus &) = default;
};

class Guestbook : public opbench::CustomResource<Guestbook, GuestbookSpec, GuestbookStatus>
{
public:
    using CustomResource::CustomResource;
    OPBENCH_KIND("webapp.example.org", "v1", "Guestbook", "guestbooks")
    static void describeCrd(opbench::CrdOptions &crd)
    {
        crd.shortNames = {"gb"};
        crd.printerColumn("Title", "string", ".spec.title");
        crd.printerColumn("Phase", "string", ".status.phase");
    }
};

} // namespace guestbook
