// SPDX-License-Identifier: Apache-2.0
#include "ui/yamldiff.h"

#include "ui/linediff.h"

#include "engine/api/yamlcodec.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace opbench::ui {

namespace {

// One step of a diff path: an object key, then the list indexes after it ("containers[0][1]").
struct PathStep
{
    QString key;
    QList<int> indexes;
};

QList<PathStep> splitPath(const QString &path)
{
    static const QRegularExpression step(QStringLiteral(R"(^(.*?)((?:\[\d+\])*)$)"));
    static const QStringList wholeKeyParents{QStringLiteral("labels"), QStringLiteral("annotations"),
        QStringLiteral("matchLabels"), QStringLiteral("data"), QStringLiteral("nodeSelector")};
    QStringList parts = path.split(u'.');
    QList<PathStep> out;
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString &part = parts.at(i);
        if (!out.isEmpty() && wholeKeyParents.contains(out.last().key) && out.last().indexes.isEmpty()) {
            out.append({parts.mid(i).join(u'.'), {}}); // a domain-prefixed key, dots and all
            break;
        }
        const QRegularExpressionMatch m = step.match(part);
        PathStep s{m.captured(1), {}};
        for (const QString &idx : m.captured(2).split(u']', Qt::SkipEmptyParts))
            s.indexes.append(idx.mid(1).toInt());
        out.append(s);
    }
    return out;
}

QJsonValue placed(const QJsonValue &into, const QList<PathStep> &steps, qsizetype at, int idx, const QJsonValue &v);

// `into` (an object) with `v` placed at steps[at…].
QJsonValue placedInObject(const QJsonValue &into, const QList<PathStep> &steps, qsizetype at, const QJsonValue &v)
{
    if (at >= steps.size())
        return v;
    QJsonObject o = into.toObject();
    const PathStep &s = steps.at(at);
    o.insert(s.key, placed(o.value(s.key), steps, at, 0, v));
    return o;
}

// The value at steps[at].key with its list indexes from `idx` on, and the rest of the path.
QJsonValue placed(const QJsonValue &into, const QList<PathStep> &steps, qsizetype at, int idx, const QJsonValue &v)
{
    const PathStep &s = steps.at(at);
    if (idx >= s.indexes.size())
        return placedInObject(into, steps, at + 1, v);
    QJsonArray a = into.toArray();
    const int i = s.indexes.at(idx);
    while (a.size() <= i)
        a.append(QStringLiteral("…"));
    a.replace(i, placed(a.at(i), steps, at, idx + 1, v));
    return a;
}

} // namespace

QJsonObject diffSkeleton(const QList<DiffEntry> &entries, bool newSide)
{
    QJsonObject out;
    for (const DiffEntry &e : entries) {
        const QJsonValue v = newSide ? e.newValue : e.oldValue;
        if (v.isUndefined() || e.path.isEmpty())
            continue;
        out = placedInObject(out, splitPath(e.path), 0, v).toObject();
    }
    return out;
}

QStringList entriesYamlDiff(const QList<DiffEntry> &entries, bool hideNoise)
{
    const QJsonObject before = diffSkeleton(entries, false);
    const QJsonObject after = diffSkeleton(entries, true);
    if (hideNoise && withoutNoise(before) == withoutNoise(after))
        return {};
    // The skeletons hold only what changed (and its parents): no folding.
    return yamlDiff(before, after, hideNoise, 1000);
}

QJsonObject withoutNoise(QJsonObject object)
{
    const QString metadataKey = QStringLiteral("metadata");
    const QString statusKey = QStringLiteral("status");
    if (object.contains(metadataKey)) {
        QJsonObject metadata = object.value(metadataKey).toObject();
        metadata.remove(QStringLiteral("resourceVersion"));
        metadata.remove(QStringLiteral("managedFields"));
        metadata.remove(QStringLiteral("generation"));
        metadata.remove(QStringLiteral("uid"));
        metadata.remove(QStringLiteral("creationTimestamp"));
        if (metadata.isEmpty())
            object.remove(metadataKey);
        else
            object.insert(metadataKey, metadata);
    }
    if (object.value(statusKey).isObject()) {
        QJsonObject status = object.value(statusKey).toObject();
        status.remove(QStringLiteral("observedGeneration"));
        if (status.value(QStringLiteral("conditions")).isArray()) { // each condition's bookkeeping too
            QJsonArray conditions = status.value(QStringLiteral("conditions")).toArray();
            for (auto c : conditions) {
                if (c.isObject()) {
                    QJsonObject o = c.toObject();
                    o.remove(QStringLiteral("observedGeneration"));
                    c = o;
                }
            }
            status.insert(QStringLiteral("conditions"), conditions);
        }
        if (status.isEmpty())
            object.remove(statusKey);
        else
            object.insert(statusKey, status);
    }
    return object;
}

QString objectYaml(const QJsonObject &object, bool hideNoise)
{
    if (object.isEmpty())
        return {};
    return QString::fromUtf8(jsonToYaml(hideNoise ? withoutNoise(object) : object));
}

QStringList yamlDiff(const QJsonObject &before, const QJsonObject &after, bool hideNoise, int context)
{
    auto lines = [hideNoise](const QJsonObject &o) {
        QString yaml = objectYaml(o, hideNoise);
        if (yaml.endsWith(u'\n'))
            yaml.chop(1);
        return yaml.isEmpty() ? QStringList() : yaml.split(u'\n');
    };
    return lineDiff(lines(before), lines(after), context);
}

QString callsYamlDiff(const QList<TraceCall> &calls, bool hideNoise)
{
    QStringList out;
    for (const TraceCall &c : calls) {
        const QList<DiffEntry> diff = c.diff();
        if (diff.isEmpty())
            continue;
        const QString head = QStringLiteral("# %1 %2 %3").arg(c.verb, c.gvk.kind, c.key);
        const QStringList lines = entriesYamlDiff(diff, hideNoise);
        if (!out.isEmpty())
            out.append(QString());
        if (lines.isEmpty()) {
            out.append(head + QStringLiteral(": only resourceVersion / generation changed (noise hidden)"));
            continue;
        }
        out.append(head);
        out.append(lines);
    }
    return out.join(u'\n');
}

} // namespace opbench::ui
