// SPDX-License-Identifier: Apache-2.0
#include "engine/base/metrics.h"

#include <QMutexLocker>

#include <charconv>
#include <cmath>
#include <functional>
#include <variant>

namespace opbench {

Histogram::Histogram(const std::vector<double> *bounds)
    : m_bounds(bounds)
    , m_buckets(new std::atomic<quint64>[bounds->size() + 1])
{
    for (size_t i = 0; i <= bounds->size(); ++i)
        m_buckets[i].store(0, std::memory_order_relaxed);
}

void Histogram::observe(double v)
{
    size_t i = 0;
    const size_t n = m_bounds->size();
    while (i < n && v > (*m_bounds)[i])
        ++i;
    m_buckets[i].fetch_add(1, std::memory_order_relaxed);
    m_count.fetch_add(1, std::memory_order_relaxed);
    m_sum.fetch_add(v, std::memory_order_relaxed);
}

template<typename T> T *MetricFamily<T>::labels(const QStringList &values)
{
    QMutexLocker lock(&m_mutex);
    auto it = m_children.find(values);
    if (it != m_children.end())
        return it->second.get();
    std::unique_ptr<T> child;
    if constexpr (std::is_same_v<T, Histogram>)
        child = std::make_unique<Histogram>(&m_buckets);
    else
        child = std::make_unique<T>();
    T *raw = child.get();
    m_children.emplace(values, std::move(child));
    return raw;
}

template<typename T> std::vector<std::pair<QStringList, const T *>> MetricFamily<T>::children() const
{
    QMutexLocker lock(&m_mutex);
    std::vector<std::pair<QStringList, const T *>> out;
    out.reserve(m_children.size());
    for (const auto &[k, v] : m_children)
        out.emplace_back(k, v.get());
    return out;
}

template<typename T> const T *MetricFamily<T>::find(const QStringList &values) const
{
    QMutexLocker lock(&m_mutex);
    auto it = m_children.find(values);
    return it == m_children.end() ? nullptr : it->second.get();
}

template class MetricFamily<Counter>;
template class MetricFamily<Gauge>;
template class MetricFamily<Histogram>;

struct MetricsRegistry::Entry
{
    std::variant<std::unique_ptr<CounterFamily>, std::unique_ptr<GaugeFamily>, std::unique_ptr<HistogramFamily>> family;
};

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

MetricsRegistry &MetricsRegistry::global()
{
    static MetricsRegistry registry;
    return registry;
}

namespace {
template<typename F, typename... Args>
F *getOrCreate(QMutex &mutex, auto &families, const QString &name, Args &&...args)
{
    QMutexLocker lock(&mutex);
    auto it = families.find(name);
    if (it != families.end()) {
        if (auto *p = std::get_if<std::unique_ptr<F>>(&it->second->family))
            return p->get();
        qFatal("metric %s registered twice with different types", qPrintable(name));
    }
    auto fam = std::make_unique<F>(name, std::forward<Args>(args)...);
    F *raw = fam.get();
    auto entry = std::make_unique<typename std::remove_reference_t<decltype(*it->second)>>();
    entry->family = std::move(fam);
    families.emplace(name, std::move(entry));
    return raw;
}

QString escapeLabel(const QString &v)
{
    QString out;
    out.reserve(v.size());
    for (QChar c : v) {
        if (c == u'\\')
            out += QLatin1String("\\\\");
        else if (c == u'"')
            out += QLatin1String("\\\"");
        else if (c == u'\n')
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

QString labelText(
    const QStringList &names, const QStringList &values, const QString &extraName = {}, const QString &extraValue = {})
{
    QStringList parts;
    for (qsizetype i = 0; i < names.size() && i < values.size(); ++i)
        parts << names.at(i) + QLatin1String("=\"") + escapeLabel(values.at(i)) + u'"';
    if (!extraName.isEmpty())
        parts << extraName + QLatin1String("=\"") + extraValue + u'"';
    return parts.isEmpty() ? QString() : u'{' + parts.join(u',') + u'}';
}

QString number(double v)
{
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("+Inf") : QStringLiteral("-Inf");
    if (std::isnan(v))
        return QStringLiteral("NaN");
    if (v == std::floor(v) && std::fabs(v) < 1e15)
        return QString::number(qint64(v));
    // Shortest text that reads back as the same double (Go's strconv 'g', -1): 0.1, not 0.1000…01.
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return QString::fromLatin1(buf, int(r.ptr - buf));
}
} // namespace

CounterFamily *MetricsRegistry::counter(const QString &name, const QString &help, const QStringList &labelNames)
{
    return getOrCreate<CounterFamily>(m_mutex, m_families, name, help, labelNames);
}

GaugeFamily *MetricsRegistry::gauge(const QString &name, const QString &help, const QStringList &labelNames)
{
    return getOrCreate<GaugeFamily>(m_mutex, m_families, name, help, labelNames);
}

HistogramFamily *MetricsRegistry::histogram(
    const QString &name, const QString &help, const QStringList &labelNames, std::vector<double> buckets)
{
    return getOrCreate<HistogramFamily>(m_mutex, m_families, name, help, labelNames, std::move(buckets));
}

void MetricsRegistry::addCollector(std::function<void()> collect)
{
    QMutexLocker lock(&m_mutex);
    m_collectors.push_back(std::move(collect));
}

QByteArray MetricsRegistry::exposition() const
{
    std::vector<std::function<void()>> collectors;
    {
        QMutexLocker lock(&m_mutex);
        collectors = m_collectors;
    }
    for (const auto &c : collectors)
        c();
    QMutexLocker lock(&m_mutex);
    QString out;
    for (const auto &[name, entry] : m_families) {
        std::visit(
            [&](const auto &fam) {
                using F = std::decay_t<decltype(*fam)>;
                out += QLatin1String("# HELP ") + name + u' ' + fam->help() + u'\n';
                if constexpr (std::is_same_v<F, CounterFamily>) {
                    out += QLatin1String("# TYPE ") + name + QLatin1String(" counter\n");
                    for (const auto &[values, c] : fam->children())
                        out += name + labelText(fam->labelNames(), values) + u' ' + number(c->value()) + u'\n';
                } else if constexpr (std::is_same_v<F, GaugeFamily>) {
                    out += QLatin1String("# TYPE ") + name + QLatin1String(" gauge\n");
                    for (const auto &[values, g] : fam->children())
                        out += name + labelText(fam->labelNames(), values) + u' ' + number(g->value()) + u'\n';
                } else {
                    out += QLatin1String("# TYPE ") + name + QLatin1String(" histogram\n");
                    for (const auto &[values, h] : fam->children()) {
                        quint64 cumulative = 0;
                        const auto &bounds = h->bounds();
                        for (size_t i = 0; i <= bounds.size(); ++i) {
                            cumulative += h->bucket(i);
                            const QString le = i < bounds.size() ? number(bounds[i]) : QStringLiteral("+Inf");
                            out += name + QLatin1String("_bucket")
                                + labelText(fam->labelNames(), values, QStringLiteral("le"), le) + u' '
                                + QString::number(cumulative) + u'\n';
                        }
                        out += name + QLatin1String("_sum") + labelText(fam->labelNames(), values) + u' '
                            + number(h->sum()) + u'\n';
                        out += name + QLatin1String("_count") + labelText(fam->labelNames(), values) + u' '
                            + QString::number(h->count()) + u'\n';
                    }
                }
            },
            entry->family);
    }
    return out.toUtf8();
}

std::vector<double> MetricsRegistry::exponentialBuckets(double start, double factor, int count)
{
    std::vector<double> b;
    double v = start;
    for (int i = 0; i < count; ++i, v *= factor)
        b.push_back(v);
    return b;
}

std::vector<double> MetricsRegistry::linearBuckets(double start, double width, int count)
{
    std::vector<double> b;
    for (int i = 0; i < count; ++i)
        b.push_back(start + width * i);
    return b;
}

} // namespace opbench
