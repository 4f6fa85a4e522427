// SPDX-License-Identifier: Apache-2.0
#pragma once
// "Billion laughs" YAML (CVE-2019-11253) for the tests of the YAML alias budget: a ConfigMap
// whose field `l1` is a sequence of `width` strings and each next level `width` aliases of the
// one before, so `levels` levels expand to width^levels strings. aliasBomb(7) is issue 27's
// 420-byte body (4,782,969 strings; it took the server to 432 MB before the budget).

#include <QByteArray>

namespace opbench::testing {

inline QByteArray aliasBomb(int levels, int width = 9, const QByteArray &name = "bomb")
{
    QByteArray y = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\nl1: &l1 [";
    for (int i = 0; i < width; ++i)
        y += i ? ",\"lol\"" : "\"lol\"";
    y += "]\n";
    for (int level = 2; level <= levels; ++level) {
        const QByteArray prev = "l" + QByteArray::number(level - 1);
        const QByteArray cur = "l" + QByteArray::number(level);
        y += cur + ": &" + cur + " [";
        for (int i = 0; i < width; ++i)
            y += (i ? ",*" : "*") + prev;
        y += "]\n";
    }
    return y;
}

} // namespace opbench::testing
