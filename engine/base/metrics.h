// SPDX-License-Identifier: Apache-2.0
#pragma once
// Metrics primitives (Prometheus data model) used across the engine: the queue, the REST client,
// controllers and the leader elector record into them; the manager serves
// MetricsRegistry::exposition() on /metrics.
//
// Hot paths resolve a child once (`family->labels({...})`) and then update it lock-free.
// Families and children live as long as their registry; pointers to them stay valid.

#include <QList>
#include <QMutex>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

namespace opbench {

class Counter
{
public:
    void inc(double v = 1.0) { m_value.fetch_add(v, std::memory_order_relaxed); }
    /// inc() for a child that only one thread ever updates (e.g. a work queue's own children):
    /// a plain load and store instead of a locked read-modify-write. Readers on other threads
    /// still see whole values; concurrent writers would lose updates.
    void incSingleWriter(double v = 1.0)
    {
        m_value.store(m_value.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    }
    double value() const { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<double> m_value{0.0};
};

class Gauge
{
public:
    void set(double v) { m_value.store(v, std::memory_order_relaxed); }
    void add(double v) { m_value.fetch_add(v, std::memory_order_relaxed); }
    /// add() for a child with one writer thread (see Counter::incSingleWriter).
    void addSingleWriter(double v)
    {
        m_value.store(m_value.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    }
    double value() const { return m_value.load(std::memory_order_relaxed); }

private:
    std::atomic<double> m_value{0.0};
};

class Histogram
{
public:
    explicit Histogram(const std::vector<double> *bounds);
    void observe(double v);
    /// observe() for a child with one writer thread (see Counter::incSingleWriter).
    void observeSingleWriter(double v)
    {
        size_t i = 0;
        const size_t n = m_bounds->size();
        while (i < n && v > (*m_bounds)[i])
            ++i;
        m_buckets[i].store(m_buckets[i].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        m_count.store(m_count.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        m_sum.store(m_sum.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
    }
    quint64 count() const { return m_count.load(std::memory_order_relaxed); }
    double sum() const { return m_sum.load(std::memory_order_relaxed); }
    /// Non-cumulative count of bucket i (i == bounds.size() is +Inf).
    quint64 bucket(size_t i) const { return m_buckets[i].load(std::memory_order_relaxed); }
    const std::vector<double> &bounds() const { return *m_bounds; }

private:
    const std::vector<double> *m_bounds;
    std::unique_ptr<std::atomic<quint64>[]> m_buckets;
    std::atomic<quint64> m_count{0};
    std::atomic<double> m_sum{0.0};
};

enum class MetricType { Counter, Gauge, Histogram };

/// A metric family: one name, one help text, fixed label names, one child per label-value tuple.
template<typename T> class MetricFamily
{
public:
    MetricFamily(QString name, QString help, QStringList labelNames, std::vector<double> buckets = {})
        : m_name(std::move(name))
        , m_help(std::move(help))
        , m_labelNames(std::move(labelNames))
        , m_buckets(std::move(buckets))
    { }
    /// The child for these label values (created at zero on first use). `values` must have as
    /// many entries as the family has label names.
    T *labels(const QStringList &values);
    /// Snapshot of the children, for exposition and tests.
    std::vector<std::pair<QStringList, const T *>> children() const;
    /// The child's value when it exists (nullptr otherwise).
    const T *find(const QStringList &values) const;

    const QString &name() const { return m_name; }
    const QString &help() const { return m_help; }
    const QStringList &labelNames() const { return m_labelNames; }

private:
    QString m_name;
    QString m_help;
    QStringList m_labelNames;
    std::vector<double> m_buckets; // histograms only
    mutable QMutex m_mutex;        // guards m_children (not the children's values)
    std::map<QStringList, std::unique_ptr<T>> m_children;
};

using CounterFamily = MetricFamily<Counter>;
using GaugeFamily = MetricFamily<Gauge>;
using HistogramFamily = MetricFamily<Histogram>;

class MetricsRegistry
{
public:
    MetricsRegistry();
    ~MetricsRegistry();
    MetricsRegistry(const MetricsRegistry &) = delete;
    MetricsRegistry &operator=(const MetricsRegistry &) = delete;

    /// The process-wide registry (what controller-runtime's metrics.Registry is).
    static MetricsRegistry &global();

    /// Registers a family, or returns the existing one of the same name and type.
    CounterFamily *counter(const QString &name, const QString &help, const QStringList &labelNames = {});
    GaugeFamily *gauge(const QString &name, const QString &help, const QStringList &labelNames = {});
    HistogramFamily *histogram(
        const QString &name, const QString &help, const QStringList &labelNames, std::vector<double> buckets);

    /// A callback run before each exposition (for gauges computed on demand, e.g. process RSS).
    void addCollector(std::function<void()> collect);

    /// Prometheus text format 0.0.4, families sorted by name, with # HELP and # TYPE.
    QByteArray exposition() const;

    /// Bucket helpers, as Prometheus' Go client defines them.
    static std::vector<double> exponentialBuckets(double start, double factor, int count);
    static std::vector<double> linearBuckets(double start, double width, int count);

private:
    struct Entry;
    mutable QMutex m_mutex;
    std::map<QString, std::unique_ptr<Entry>> m_families;
    std::vector<std::function<void()>> m_collectors;
};

} // namespace opbench
