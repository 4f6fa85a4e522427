// SPDX-License-Identifier: Apache-2.0
#pragma once
// Custom resource types for tst_customresource and tst_crdgen: the SDK 0.3 acceptance's
// Guestbook (docs: /work/sdk03-plan.md) as its author writes it, and a Widget that uses every
// supported member type and marker.

#include "engine/api/typed/crdgen.h"

#include <QJsonObject>

namespace typedkinds {

using opbench::Fields;

struct GuestbookSpec
{
    QString title;
    QStringList entries;
    int port = 80;
    static void describe(Fields<GuestbookSpec> &f)
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
    QList<opbench::Condition> conditions;
    static void describe(Fields<GuestbookStatus> &f)
    {
        f.field("phase", &GuestbookStatus::phase);
        f.field("entries", &GuestbookStatus::entries);
        f.field("observedGeneration", &GuestbookStatus::observedGeneration);
        f.field("conditions", &GuestbookStatus::conditions);
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
        crd.shortNames = QStringList{QStringLiteral("gb")};
        crd.printerColumn(QStringLiteral("Title"), QStringLiteral("string"), QStringLiteral(".spec.title"));
        crd.printerColumn(QStringLiteral("Phase"), QStringLiteral("string"), QStringLiteral(".status.phase"));
    }
};

struct Backend
{
    QString host;
    int port = 0;
    static void describe(Fields<Backend> &f)
    {
        f.field("host", &Backend::host).required();
        f.field("port", &Backend::port).minimum(1).maximum(65535);
    }
    friend bool operator==(const Backend &, const Backend &) = default;
};

struct WidgetSpec
{
    QString name;
    int size = 3;
    qint64 quota = 0;
    double ratio = 0;
    bool paused = false;
    QStringList tags;
    QMap<QString, QString> labels;
    QList<Backend> backends;
    Backend primary;
    std::optional<Backend> mirror;
    std::optional<int> replicas;
    QJsonObject extra;
    QString tier;
    static void describe(Fields<WidgetSpec> &f)
    {
        f.description(QStringLiteral("A widget of every field type."));
        f.field("name", &WidgetSpec::name).required().maxLength(10).pattern(QStringLiteral("^[a-z]*$"));
        f.field("size", &WidgetSpec::size).defaultValue(3).minimum(0).description(QStringLiteral("How big."));
        f.field("quota", &WidgetSpec::quota);
        f.field("ratio", &WidgetSpec::ratio).maximum(1);
        f.field("paused", &WidgetSpec::paused);
        f.field("tags", &WidgetSpec::tags).maxItems(3);
        f.field("labels", &WidgetSpec::labels);
        f.field("backends", &WidgetSpec::backends).minItems(0);
        f.field("primary", &WidgetSpec::primary);
        f.field("mirror", &WidgetSpec::mirror);
        f.field("replicas", &WidgetSpec::replicas).defaultValue(1);
        f.field("extra", &WidgetSpec::extra);
        f.field("tier", &WidgetSpec::tier).enumValues({QStringLiteral("gold"), QStringLiteral("silver")});
    }
    friend bool operator==(const WidgetSpec &, const WidgetSpec &) = default;
};

struct WidgetStatus
{
    QString phase;
    QList<opbench::Condition> conditions;
    static void describe(Fields<WidgetStatus> &f)
    {
        f.field("phase", &WidgetStatus::phase);
        f.field("conditions", &WidgetStatus::conditions);
    }
    friend bool operator==(const WidgetStatus &, const WidgetStatus &) = default;
};

class Widget : public opbench::CustomResource<Widget, WidgetSpec, WidgetStatus>
{
public:
    using CustomResource::CustomResource;
    OPBENCH_KIND("test.example.org", "v1alpha1", "Widget", "widgets")
};

/// A cluster-scoped kind without status.
struct TenantSpec
{
    QString owner;
    static void describe(Fields<TenantSpec> &f) { f.field("owner", &TenantSpec::owner); }
    friend bool operator==(const TenantSpec &, const TenantSpec &) = default;
};

class Tenant : public opbench::CustomResource<Tenant, TenantSpec, void>
{
public:
    using CustomResource::CustomResource;
    OPBENCH_CLUSTER_KIND("test.example.org", "v1", "Tenant", "tenants")
    static void describeCrd(opbench::CrdOptions &crd) { crd.categories = QStringList{QStringLiteral("all")}; }
};

} // namespace typedkinds
