// SPDX-License-Identifier: Apache-2.0
#pragma once
// MyApplication example.com/v1beta1: the served, not stored, version. Its one field change:
// the image is split into parts,
//
//     v1alpha1  spec.image: registry.example.com/shop/web:2.4@sha256:…
//     v1beta1   spec.image: {repository: registry.example.com/shop/web, tag: "2.4", digest: sha256:…}
//
// (tag and digest each optional). v1alpha1 (MyApplication, the storage version) is the hub:
// convertTo()/convertFrom() are what the conversion webhook at /convert runs (conversion.h);
// everything else in spec, status and metadata is copied. Every image v1alpha1 can hold comes
// back unchanged through v1beta1 (an image without tag or digest too).

#include "engine/operator/myapplication.h"

namespace opbench::myapp {

/// An image reference in parts: "<repository>[:<tag>][@<digest>]".
struct ImageReference
{
    QString repository;
    QString tag;
    QString digest;

    /// Splits `image`; the tag is a ':' after the last '/' (so "host:5000/app" has none).
    static ImageReference parse(const QString &image);
    [[nodiscard]] QString toString() const;
    friend bool operator==(const ImageReference &, const ImageReference &) = default;
};

class MyApplicationV1beta1 : public ObjectView
{
public:
    OPBENCH_KIND("example.com", "v1beta1", "MyApplication", "myapplications")

    MyApplicationV1beta1()
        : ObjectView(kindInfo().apiVersion(), kindInfo().gvk.kind)
    { }
    explicit MyApplicationV1beta1(const Object &object)
        : ObjectView(object)
    { }

    ImageReference image() const;
    void setImage(const ImageReference &image);
    int replicas() const { return int(intAt({"spec", "replicas"}, 1)); }
    void setReplicas(int n) { setAt({"spec", "replicas"}, n); }

    Expected<void> convertTo(MyApplication &hub) const;
    Expected<void> convertFrom(const MyApplication &hub);
};

} // namespace opbench::myapp
