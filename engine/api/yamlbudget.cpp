// SPDX-License-Identifier: Apache-2.0
#include "engine/api/yamlbudget_p.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <vector>

namespace opbench::yamlbudget {

namespace {

class ExpansionCounter final : public YAML::EventHandler
{
public:
    explicit ExpansionCounter(YamlExpansionBudget *budget)
        : m_budget(budget)
    { }

    void OnDocumentStart(const YAML::Mark &) override
    {
        m_anchors.clear(); // yaml-cpp numbers anchors per document, from 1
        m_open.clear();
    }
    void OnDocumentEnd() override { }
    void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override { leaf(mark, anchor, 1); }
    void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override
    {
        if (anchor >= m_anchors.size() || m_anchors[anchor] < 0) // unknown: yaml-cpp throws first
            throw ExcessiveAliasing{mark, true};
        add(mark, m_anchors[anchor]);
    }
    void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, const std::string &value) override
    {
        leaf(mark, anchor, 1 + qint64(value.size()));
    }
    void OnSequenceStart(
        const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(
        const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor, YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    void add(const YAML::Mark &mark, qint64 weight)
    {
        // Every anchored weight was at most the budget when recorded, so this cannot overflow.
        m_budget->used += weight;
        if (m_budget->used > m_budget->limit)
            throw ExcessiveAliasing{mark, false};
    }
    void setAnchor(YAML::anchor_t anchor, qint64 weight)
    {
        if (anchor == YAML::NullAnchor)
            return;
        if (anchor >= m_anchors.size())
            m_anchors.resize(anchor + 1, -1);
        m_anchors[anchor] = weight;
    }
    void leaf(const YAML::Mark &mark, YAML::anchor_t anchor, qint64 weight)
    {
        add(mark, weight);
        setAnchor(anchor, weight);
    }
    void open(const YAML::Mark &mark, YAML::anchor_t anchor)
    {
        add(mark, 1);
        if (anchor != YAML::NullAnchor && anchor >= m_anchors.size())
            m_anchors.resize(anchor + 1, -1); // -1 while open: an alias to it refers to itself
        m_open.push_back({anchor, m_budget->used - 1});
    }
    void close()
    {
        if (m_open.empty())
            return;
        const auto [anchor, usedBefore] = m_open.back();
        m_open.pop_back();
        setAnchor(anchor, m_budget->used - usedBefore);
    }

    YamlExpansionBudget *m_budget;
    std::vector<qint64> m_anchors;                         // weight per anchor id, -1 while open
    std::vector<std::pair<YAML::anchor_t, qint64>> m_open; // open collections: anchor, used before
};

} // namespace

qsizetype excessiveFlowNesting(const QByteArray &text)
{
    int open = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '[' || c == '{') {
            if (++open > kMaxUnclosedFlow)
                return i;
        } else if ((c == ']' || c == '}') && open > 0) {
            --open;
        }
    }
    return -1;
}

DryRun dryRun(const std::string &text, YamlExpansionBudget *budget)
{
    std::istringstream in(text);
    YAML::Parser parser(in);
    ExpansionCounter events(budget);
    for (std::size_t documents = 0; parser.HandleNextDocument(events);)
        if (++documents > text.size() + 1)
            return DryRun::Endless;
    return DryRun::Ends;
}

} // namespace opbench::yamlbudget
