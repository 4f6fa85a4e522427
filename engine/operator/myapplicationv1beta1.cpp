// SPDX-License-Identifier: Apache-2.0
#include "engine/operator/myapplicationv1beta1.h"

namespace opbench::myapp {

ImageReference ImageReference::parse(const QString &image)
{
    ImageReference out;
    QString name = image;
    if (const qsizetype at = name.indexOf(u'@'); at >= 0) {
        out.digest = name.mid(at + 1);
        name.truncate(at);
    }
    const qsizetype colon = name.lastIndexOf(u':');
    if (colon > name.lastIndexOf(u'/')) {
        out.tag = name.mid(colon + 1);
        name.truncate(colon);
    }
    out.repository = name;
    return out;
}

QString ImageReference::toString() const
{
    QString out = repository;
    if (!tag.isEmpty())
        out += u':' + tag;
    if (!digest.isEmpty())
        out += u'@' + digest;
    return out;
}

ImageReference MyApplicationV1beta1::image() const
{
    const QJsonObject o = at({"spec", "image"}).toObject();
    return {o.value(QLatin1String("repository")).toString(), o.value(QLatin1String("tag")).toString(),
        o.value(QLatin1String("digest")).toString()};
}

void MyApplicationV1beta1::setImage(const ImageReference &image)
{
    QJsonObject o{{QStringLiteral("repository"), image.repository}};
    if (!image.tag.isEmpty())
        o.insert(QStringLiteral("tag"), image.tag);
    if (!image.digest.isEmpty())
        o.insert(QStringLiteral("digest"), image.digest);
    setAt({"spec", "image"}, o);
}

Expected<void> MyApplicationV1beta1::convertTo(MyApplication &hub) const
{
    if (json().contains(QLatin1String("spec"))) {
        QJsonObject spec = at({"spec"}).toObject();
        spec.remove(QLatin1String("image"));
        hub.setSpec(spec);
        if (at({"spec", "image"}).isObject())
            hub.setImage(image().toString());
    }
    hub.setStatusObject(at({"status"}).toObject());
    return {};
}

Expected<void> MyApplicationV1beta1::convertFrom(const MyApplication &hub)
{
    if (hub.json().contains(QLatin1String("spec"))) {
        QJsonObject spec = hub.spec();
        spec.remove(QLatin1String("image"));
        setAt({"spec"}, spec);
        if (hub.spec().contains(QLatin1String("image")))
            setImage(ImageReference::parse(hub.image()));
    }
    const QJsonObject status = hub.statusObject();
    setAt({"status"}, status.isEmpty() ? QJsonValue(QJsonValue::Undefined) : QJsonValue(status));
    return {};
}

} // namespace opbench::myapp
