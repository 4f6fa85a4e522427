// SPDX-License-Identifier: Apache-2.0
#include "engine/api/yamlcodec.h"

#include "engine/api/yamlbudget_p.h"
#include "engine/api/yamlscalars_p.h"

#include <QJsonArray>
#include <QMetaType>
#include <QRegularExpression>
#include <QSet>
#include <QVariant>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <sstream>
#include <vector>

namespace opbench {

using namespace yamlbudget;
using namespace yamlscalars;

namespace {

const char *const kStrTag = "tag:yaml.org,2002:str";
const char *const kNullTag = "tag:yaml.org,2002:null";

// Splits a multi-document stream at `---` lines; returns (first line index, text) per chunk.
QList<std::pair<int, QByteArray>> splitDocuments(const QByteArray &yaml)
{
    QList<std::pair<int, QByteArray>> chunks;
    const QList<QByteArray> lines = yaml.split('\n');
    QByteArray current;
    int start = 0;
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray &line = lines[i];
        const bool marker
            = line.startsWith("---") && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' || line[3] == '\r');
        if (marker) {
            chunks.append({start, current});
            current.clear();
            start = i;
        }
        if (line == "..." || line == "...\r")
            current.append('\n'); // document end marker: keep line numbering, drop the marker
        else
            current.append(line).append('\n');
    }
    chunks.append({start, current});
    return chunks;
}

// Builds one JSON value per document straight from yaml-cpp's parser events, so yaml-cpp's node
// graph (about 80 bytes of memory per byte of dense YAML) is never built. Scalars are resolved
// where they are used as values (a key keeps its text: `1: a` is the key "1"); an alias stands
// for its anchored node, shared, not copied (the JSON values share their data). The dry run
// (below) has already refused unknown anchors, aliases inside their own anchor and alias bombs.
class JsonBuilder final : public YAML::EventHandler
{
public:
    enum class Kind { Null, Scalar, Sequence, Map };
    struct Document
    {
        Kind kind = Kind::Null;
        YAML::Mark mark;
        QJsonValue value;
        QString error; // the first conversion error in the document
    };

    JsonBuilder(int lineOffset, int document)
        : m_lineOffset(lineOffset)
        , m_document(document)
    { }

    QString where(const YAML::Mark &m) const
    {
        return QStringLiteral("line %1, column %2 (document %3)")
            .arg(m.line + 1 + m_lineOffset)
            .arg(m.column + 1)
            .arg(m_document);
    }

    QList<Document> documents;

    void OnDocumentStart(const YAML::Mark &) override
    {
        m_anchors.clear(); // yaml-cpp numbers anchors per document, from 1
        m_stack.clear();
        m_current = Document();
        m_hasRoot = false;
    }
    void OnDocumentEnd() override
    {
        if (m_hasRoot)
            documents.append(std::move(m_current));
    }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        complete(Node{Kind::Null, mark, {}, QJsonValue(QJsonValue::Null), {}}, anchor);
    }
    void OnAlias(const YAML::Mark &, YAML::anchor_t anchor) override
    {
        if (anchor < m_anchors.size())
            complete(m_anchors[anchor], YAML::NullAnchor);
    }
    void OnScalar(
        const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor, const std::string &value) override
    {
        complete(Node{Kind::Scalar, mark, tag, {}, QString::fromStdString(value)}, anchor);
    }
    void OnSequenceStart(
        const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(false, mark, anchor);
    }
    void OnSequenceEnd() override
    {
        Frame f = pop();
        complete(Node{Kind::Sequence, f.mark, {}, f.array, {}}, f.anchor);
    }
    void OnMapStart(
        const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(true, mark, anchor);
    }
    void OnMapEnd() override
    {
        Frame f = pop();
        if (!f.mergeSource.isUndefined())
            merge(f, f.mergeSource);
        complete(Node{Kind::Map, f.mark, {}, f.toObject(), {}}, f.anchor);
    }

private:
    struct Node
    {
        Kind kind;
        YAML::Mark mark;
        std::string tag;  // scalars
        QJsonValue value; // collections and null; a scalar's is resolved where it is used
        QString text;     // scalars
    };
    struct Frame
    {
        bool isMap = false;
        YAML::anchor_t anchor = YAML::NullAnchor;
        YAML::Mark mark;
        bool quiet = false; // inside a mapping key: it is refused as a whole, nothing in it resolved
        QJsonArray array;
        // A map's entries in document order, made a QJsonObject at its end: inserting keys one by
        // one in document order costs O(n) each (QJsonObject is a sorted array), minutes for
        // 200,000 keys. The values wait in a QJsonArray, which stores scalars compactly.
        std::vector<QString> keys;
        QJsonArray values;
        QSet<QString> keySet; // the same keys, once there are more than a few

        bool has(const QString &key)
        {
            if (keys.size() <= 16)
                return std::find(keys.begin(), keys.end(), key) != keys.end();
            if (keySet.isEmpty())
                keySet = QSet<QString>(keys.begin(), keys.end());
            return keySet.contains(key);
        }
        void add(const QString &key, const QJsonValue &value)
        {
            keys.push_back(key);
            values.append(value);
            if (!keySet.isEmpty())
                keySet.insert(key);
        }
        QJsonObject toObject() const
        {
            // Inserted in key order, each insert appends; a repeated key keeps its last value.
            std::vector<qsizetype> order(keys.size());
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(
                order.begin(), order.end(), [this](qsizetype a, qsizetype b) { return keys[a] < keys[b]; });
            QJsonObject object;
            for (qsizetype i : order)
                object.insert(keys[i], values.at(i));
            return object;
        }
        bool haveKey = false; // maps: a key is waiting for its value
        bool skipValue = false;
        bool mergeKey = false;
        QString key;
        QJsonValue mergeSource = QJsonValue(QJsonValue::Undefined);
    };

    void fail(const QString &message)
    {
        if (m_current.error.isEmpty())
            m_current.error = message;
    }

    bool inKeyPosition() const { return !m_stack.empty() && m_stack.back().isMap && !m_stack.back().haveKey; }

    void open(bool isMap, const YAML::Mark &mark, YAML::anchor_t anchor)
    {
        Frame f;
        f.isMap = isMap;
        f.anchor = anchor;
        f.mark = mark;
        f.quiet = inKeyPosition() || (!m_stack.empty() && m_stack.back().quiet);
        m_stack.push_back(std::move(f));
    }

    Frame pop()
    {
        Frame f = std::move(m_stack.back());
        m_stack.pop_back();
        return f;
    }

    QJsonValue scalar(const Node &n)
    {
        const std::string &tag = n.tag;
        const QString &text = n.text;
        if (tag == "?")
            return resolvePlainYamlScalar(text);
        if (tag == "!" || tag.empty() || tag == kStrTag || tag.rfind("tag:yaml.org,2002:", 0) != 0)
            return text;
        // An explicit core tag (!!int, !!float, !!bool, !!null): resolve, then check.
        const QJsonValue v = resolvePlainYamlScalar(text);
        const bool fits = (tag == "tag:yaml.org,2002:int" && v.isDouble())
            || (tag == "tag:yaml.org,2002:float" && v.isDouble()) || (tag == "tag:yaml.org,2002:bool" && v.isBool())
            || (tag == kNullTag && v.isNull());
        if (!fits && (m_stack.empty() || !m_stack.back().quiet))
            fail(QStringLiteral("yaml: %1: cannot decode %2 as %3")
                     .arg(where(n.mark), text, QString::fromStdString(tag.substr(18))));
        return v;
    }

    // `<<` merge keys: what the map does not set itself comes from the merged maps, the first
    // one that sets it.
    static void merge(Frame &into, const QJsonValue &source)
    {
        const QJsonArray sources = source.isArray() ? source.toArray() : QJsonArray{source};
        for (const QJsonValue &s : sources) {
            const QJsonObject o = s.toObject();
            for (auto it = o.begin(); it != o.end(); ++it) {
                if (!into.has(it.key()))
                    into.add(it.key(), it.value());
            }
        }
    }

    void complete(const Node &n, YAML::anchor_t anchor)
    {
        if (anchor != YAML::NullAnchor) {
            if (anchor >= m_anchors.size())
                m_anchors.resize(anchor + 1);
            m_anchors[anchor] = n;
        }
        if (m_stack.empty()) { // the document's root: only a mapping is converted (yamlToJson)
            m_current.kind = n.kind;
            m_current.mark = n.mark;
            if (n.kind == Kind::Map)
                m_current.value = n.value;
            m_hasRoot = true;
            return;
        }
        Frame &f = m_stack.back();
        if (!f.isMap) {
            f.array.append(n.kind == Kind::Scalar ? scalar(n) : n.value);
            return;
        }
        if (!f.haveKey) {
            f.haveKey = true;
            f.skipValue = false;
            f.mergeKey = false;
            if (n.kind != Kind::Scalar) {
                if (!f.quiet)
                    fail(QStringLiteral("yaml: %1: only scalar mapping keys are supported").arg(where(n.mark)));
                f.skipValue = true;
                return;
            }
            f.key = n.text;
            if (f.key == QLatin1String("<<") && n.tag == "?") {
                f.mergeKey = true;
                return;
            }
            if (!f.quiet && f.has(f.key))
                fail(QStringLiteral("yaml: %1: key %2 already set in map")
                         .arg(where(n.mark), QLatin1Char('"') + f.key + QLatin1Char('"')));
            return;
        }
        f.haveKey = false;
        if (f.skipValue)
            return;
        const QJsonValue value = n.kind == Kind::Scalar ? scalar(n) : n.value;
        if (f.mergeKey)
            f.mergeSource = value;
        else
            f.add(f.key, value);
    }

    int m_lineOffset;
    int m_document;
    std::vector<Node> m_anchors;
    std::vector<Frame> m_stack;
    Document m_current;
    bool m_hasRoot = false;
};

Status yamlError(const QString &detail)
{
    return Status::badRequest(QStringLiteral("error converting YAML to JSON: ") + detail);
}

/// kube-apiserver's wording (go-yaml's) for an alias bomb; a self-referencing alias is told apart.
Status aliasingError(const ExcessiveAliasing &e, const JsonBuilder &conv)
{
    if (e.selfReference)
        return yamlError(QStringLiteral("yaml: %1: an alias refers to the node it is in").arg(conv.where(e.mark)));
    return yamlError(QStringLiteral("yaml: document contains excessive aliasing"));
}

bool isBlank(const QByteArray &chunk)
{
    for (const QByteArray &line : chunk.split('\n')) {
        const QByteArray t = line.trimmed();
        if (!t.isEmpty() && !t.startsWith('#') && t != "---")
            return false;
    }
    return true;
}

} // namespace

QJsonValue resolvePlainYamlScalar(const QString &text)
{
    static const QSet<QString> nulls{
        QString(), QStringLiteral("~"), QStringLiteral("null"), QStringLiteral("Null"), QStringLiteral("NULL")};
    static const QSet<QString> trues{QStringLiteral("y"), QStringLiteral("Y"), QStringLiteral("yes"),
        QStringLiteral("Yes"), QStringLiteral("YES"), QStringLiteral("true"), QStringLiteral("True"),
        QStringLiteral("TRUE"), QStringLiteral("on"), QStringLiteral("On"), QStringLiteral("ON")};
    static const QSet<QString> falses{QStringLiteral("n"), QStringLiteral("N"), QStringLiteral("no"),
        QStringLiteral("No"), QStringLiteral("NO"), QStringLiteral("false"), QStringLiteral("False"),
        QStringLiteral("FALSE"), QStringLiteral("off"), QStringLiteral("Off"), QStringLiteral("OFF")};
    if (nulls.contains(text))
        return QJsonValue(QJsonValue::Null);
    if (trues.contains(text))
        return true;
    if (falses.contains(text))
        return false;
    const QChar first = text[0];
    if (!(first.isDigit() || first == u'+' || first == u'-' || first == u'.'))
        return text;
    if (auto i = parseYamlInt(text))
        return *i;
    if (auto d = parseYamlFloat(text))
        return *d;
    return text;
}

Expected<void> checkYamlAliasing(const QByteArray &yaml)
{
    YamlExpansionBudget budget = YamlExpansionBudget::forInput(yaml.size());
    if (excessiveFlowNesting(yaml) >= 0)
        return Status::badRequest(
            QStringLiteral("yaml: more than %1 flow collections ([ or {) open at once").arg(kMaxUnclosedFlow));
    try {
        dryRun(yaml.toStdString(), &budget);
    } catch (const ExcessiveAliasing &e) {
        if (e.selfReference)
            return Status::badRequest(QStringLiteral("yaml: line %1, column %2: an alias refers to the node it is in")
                                          .arg(e.mark.line + 1)
                                          .arg(e.mark.column + 1));
        return Status::badRequest(QStringLiteral("yaml: document contains excessive aliasing"));
    } catch (const YAML::Exception &) {
        // malformed: the caller's parse says where
    }
    return {};
}

Expected<QList<QJsonObject>> yamlToJson(const QByteArray &yaml)
{
    QList<QJsonObject> out;
    int document = 0;
    YamlExpansionBudget budget = YamlExpansionBudget::forInput(yaml.size());
    const auto chunks = splitDocuments(yaml);
    for (qsizetype ci = 0; ci < chunks.size(); ++ci) {
        const auto &[firstLine, chunk] = chunks[ci];
        // Comments before the first `---` are not a document of their own.
        if (ci == 0 && !chunk.startsWith("---") && isBlank(chunk))
            continue;
        ++document;
        JsonBuilder builder(firstLine, document);
        if (const qsizetype at = excessiveFlowNesting(chunk); at >= 0) {
            const qsizetype lineStart = chunk.lastIndexOf('\n', at) + 1;
            YAML::Mark mark;
            mark.line = int(chunk.left(at).count('\n'));
            mark.column = int(at - lineStart);
            return yamlError(QStringLiteral("yaml: %1: more than %2 flow collections ([ or {) open at once")
                                 .arg(builder.where(mark))
                                 .arg(kMaxUnclosedFlow));
        }
        try {
            const std::string text = chunk.toStdString();
            if (dryRun(text, &budget) == DryRun::Endless)
                return yamlError(QStringLiteral("yaml: document %1: did not find expected node content").arg(document));
            std::istringstream in(text);
            YAML::Parser parser(in);
            while (parser.HandleNextDocument(builder)) { }
        } catch (const ExcessiveAliasing &e) {
            return aliasingError(e, builder);
        } catch (const YAML::DeepRecursion &e) {
            return yamlError(QStringLiteral("yaml: %1: nested deeper than the limit of %2 levels")
                                 .arg(builder.where(e.mark))
                                 .arg(e.depth()));
        } catch (const YAML::ParserException &e) {
            return yamlError(QStringLiteral("yaml: %1: %2").arg(builder.where(e.mark), QString::fromStdString(e.msg)));
        } catch (const YAML::Exception &e) {
            return yamlError(QStringLiteral("yaml: document %1: %2").arg(document).arg(QString::fromUtf8(e.what())));
        }
        for (const JsonBuilder::Document &doc : std::as_const(builder.documents)) {
            if (doc.kind == JsonBuilder::Kind::Null)
                continue;
            if (doc.kind != JsonBuilder::Kind::Map)
                return yamlError(QStringLiteral("yaml: %1: a document must be a mapping (an object), not a %2")
                                     .arg(builder.where(doc.mark),
                                         doc.kind == JsonBuilder::Kind::Sequence ? QStringLiteral("sequence")
                                                                                 : QStringLiteral("scalar")));
            if (!doc.error.isEmpty())
                return yamlError(doc.error);
            out.append(doc.value.toObject());
        }
    }
    return out;
}

} // namespace opbench
