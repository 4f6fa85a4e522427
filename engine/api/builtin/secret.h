// SPDX-License-Identifier: Apache-2.0
#pragma once
// Secret (core/v1): type and data. `data` holds base64 on the wire; this view decodes it.
// The server turns `stringData` into `data` on every write, so setStringData() writes the
// encoded values into `data` itself: applying the same setter to the object read back changes
// nothing (a createOrUpdate does not write).
//
//     Secret s(ns, name);
//     s.setStringData({{"username", "admin"}, {"password", password}});

#include "engine/api/kind.h"
#include "engine/api/objectview.h"

namespace opbench {

class Secret : public ObjectView
{
public:
    /// v1 Secret, "secrets", namespaced.
    static const KindInfo &kindInfo();

    /// A new, empty v1 Secret.
    Secret();
    /// A new v1 Secret `name` in `namespaceName`.
    Secret(const QString &namespaceName, const QString &name);
    explicit Secret(const Object &object)
        : ObjectView(object)
    { }

    /// type: "Opaque" when absent (the server's default), "kubernetes.io/tls", …
    QString type() const;
    /// Sets type (immutable once created).
    void setType(const QString &type) { setAt({"type"}, type); }
    /// data, decoded.
    QMap<QString, QByteArray> data() const;
    /// Sets data to exactly `data` (encoded); an empty map removes it.
    void setData(const QMap<QString, QByteArray> &data);
    /// Sets data to exactly `data` (UTF-8, encoded): what the server makes of stringData.
    void setStringData(const QMap<QString, QString> &data);
    /// One decoded value (empty when absent).
    QByteArray value(const QString &key) const;
    /// Sets one value, keeping the others.
    void setValue(const QString &key, const QByteArray &value);
    void remove(const QString &key);
};

} // namespace opbench
