// SPDX-License-Identifier: Apache-2.0
// CacheFeed (engine/workbench/cachefeed.h): the Cache panel's view of the Manager's informer
// cache. Informers are fed directly (their DeltaSink side, as the reflector would), so every
// change of one synchronous block lands in one batch: the first batch holds what the informers
// already had; changes are coalesced per object (kind, key, uid); informer states ride along;
// the history answers an object's versions and the whole cache at a resourceVersion.
#include "engine/cache/informercache.h"
#include "engine/workbench/cachefeed.h"
#include "tests/workbench/headless.h"

#include <QSignalSpy>
#include <QTest>

using namespace opbench;
using namespace opbench::workbench;

namespace {

const GroupVersionKind kConfigMap{QString(), QStringLiteral("v1"), QStringLiteral("ConfigMap")};
const GroupVersionKind kSecret{QString(), QStringLiteral("v1"), QStringLiteral("Secret")};

Object object(
    const QString &kind, const QString &name, const QString &rv, const QString &value = {}, const QString &uid = {})
{
    return Object::fromJson(
        QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")}, {QStringLiteral("kind"), kind},
            {QStringLiteral("metadata"),
                QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), QStringLiteral("default")},
                    {QStringLiteral("resourceVersion"), rv},
                    {QStringLiteral("uid"), uid.isEmpty() ? QStringLiteral("uid-") + name : uid}}},
            {QStringLiteral("data"), QJsonObject{{QStringLiteral("v"), value}}}});
}

QString describe(const CacheEntry &e)
{
    return (e.op == CacheEntry::Op::Upsert ? QStringLiteral("upsert ") : QStringLiteral("remove ")) + e.kind + u' '
        + e.object.key() + u'@' + e.object.resourceVersion() + u' ' + e.object.uid();
}

QStringList entries(const CacheBatch &b)
{
    QStringList out;
    for (const CacheEntry &e : b.entries)
        out << describe(e);
    return out;
}

} // namespace

class tst_CacheFeed : public QObject
{
    Q_OBJECT

    struct Fixture
    {
        InformerCache cache;
        Informer *configMaps = nullptr;
        Informer *secrets = nullptr;
        CacheFeed feed;
        QSignalSpy batches{&feed, &CacheFeed::batch};
        Fixture()
            : cache(options())
        {
            configMaps = *cache.informerFor(kConfigMap);
            secrets = *cache.informerFor(kSecret);
        }
        static InformerCacheOptions options()
        {
            InformerCacheOptions o;
            o.historyCapacity = 100;
            return o;
        }
        /// The next batch (flushed every 100 ms of real time: waited for, never assumed).
        CacheBatch next()
        {
            const qsizetype seen = batches.size();
            if (!QTest::qWaitFor([&] { return batches.size() > seen; }, 10000))
                return {};
            return batches.at(seen).at(0).value<CacheBatch>();
        }
    };

private Q_SLOTS:
    void initTestCase() { testing::verifyNoGuiLibrariesLoaded(); }

    void shouldStartWithWhatTheInformersHoldAndTheirStates()
    {
        Fixture f;
        f.configMaps->replaceAll(
            {object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("5"))}, QStringLiteral("5"));
        f.feed.observe(&f.cache, {kConfigMap, kSecret});
        QCOMPARE(f.feed.kinds(), (QStringList{"ConfigMap", "Secret"}));
        const CacheBatch first = f.next();
        QCOMPARE(entries(first), QStringList{QStringLiteral("upsert ConfigMap default/a@5 uid-a")});
        QCOMPARE(first.informers.size(), 2);
        QCOMPARE(first.informers.at(0).kind, QStringLiteral("ConfigMap"));
        QVERIFY(first.informers.at(0).synced);
        QCOMPARE(first.informers.at(0).lastSyncRv, QStringLiteral("5"));
        QCOMPARE(first.informers.at(0).count, 1);
        QCOMPARE(first.informers.at(1).kind, QStringLiteral("Secret"));
        QVERIFY(!first.informers.at(1).synced); // never listed
        QCOMPARE(first.informers.at(1).count, 0);
    }

    void shouldCoalesceChangesPerObjectBetweenFlushes()
    {
        Fixture f;
        f.configMaps->replaceAll({}, QStringLiteral("1"));
        f.secrets->replaceAll({}, QStringLiteral("1"));
        f.feed.observe(&f.cache, {kConfigMap, kSecret});
        QVERIFY(f.next().entries.isEmpty());
        // Within one flush: "a" added then changed twice, "b" added then deleted, "c" deleted and
        // created again under a new uid, and a Secret of the same name as "a".
        f.configMaps->added(object(QStringLiteral("ConfigMap"), QStringLiteral("c"), QStringLiteral("2")));
        f.configMaps->added(object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("3"), "x"));
        f.configMaps->modified(object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("4"), "y"));
        f.configMaps->added(object(QStringLiteral("ConfigMap"), QStringLiteral("b"), QStringLiteral("5")));
        f.configMaps->modified(object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("6"), "z"));
        f.configMaps->deleted(object(QStringLiteral("ConfigMap"), QStringLiteral("b"), QStringLiteral("7")));
        f.configMaps->deleted(object(QStringLiteral("ConfigMap"), QStringLiteral("c"), QStringLiteral("8")));
        f.configMaps->added(object(
            QStringLiteral("ConfigMap"), QStringLiteral("c"), QStringLiteral("9"), {}, QStringLiteral("uid-c2")));
        f.secrets->added(object(QStringLiteral("Secret"), QStringLiteral("a"), QStringLiteral("10")));
        const CacheBatch b = f.next();
        QCOMPARE(entries(b),
            (QStringList{QStringLiteral("remove ConfigMap default/c@8 uid-c"),
                QStringLiteral("upsert ConfigMap default/a@6 uid-a"),
                QStringLiteral("remove ConfigMap default/b@7 uid-b"),
                QStringLiteral("upsert ConfigMap default/c@9 uid-c2"),
                QStringLiteral("upsert Secret default/a@10 uid-a")}));
        QCOMPARE(
            b.entries.at(1).object.value({QLatin1String("data"), QLatin1String("v")}).toString(), QStringLiteral("z"));
        // Every change counted before coalescing; the store's size as it is now
        QCOMPARE(b.informers.at(0).events, 8);
        QCOMPARE(b.informers.at(0).count, 2);
        QCOMPARE(b.informers.at(0).latestRv, QStringLiteral("9"));
        QCOMPARE(b.informers.at(1).events, 1);
        // Nothing changed since: no batch until something does (the next change is the next batch)
        f.secrets->modified(object(QStringLiteral("Secret"), QStringLiteral("a"), QStringLiteral("11")));
        QCOMPARE(entries(f.next()), QStringList{QStringLiteral("upsert Secret default/a@11 uid-a")});
    }

    void shouldAnswerVersionsAndTheCacheAtAResourceVersion()
    {
        Fixture f;
        f.configMaps->replaceAll({object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("2"), "one")},
            QStringLiteral("2"));
        f.secrets->replaceAll({}, QStringLiteral("2"));
        f.feed.observe(&f.cache, {kConfigMap, kSecret});
        f.configMaps->modified(object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("3"), "two"));
        f.configMaps->added(object(QStringLiteral("ConfigMap"), QStringLiteral("b"), QStringLiteral("4")));
        f.configMaps->deleted(object(QStringLiteral("ConfigMap"), QStringLiteral("a"), QStringLiteral("5"), "two"));
        // An object's versions, oldest first, and its current state (gone)
        QSignalSpy versions(&f.feed, &CacheFeed::versionsReady);
        f.feed.requestVersions(QStringLiteral("ConfigMap"), QStringLiteral("default/a"));
        QCOMPARE(versions.size(), 1);
        const ObjectVersions v = versions.at(0).at(0).value<ObjectVersions>();
        QStringList rvs;
        for (const CacheChange &c : v.changes)
            rvs << c.resourceVersion;
        QCOMPARE(rvs.last(), QStringLiteral("5"));
        QVERIFY(rvs.contains(QStringLiteral("3")));
        QVERIFY(v.current.isNull());
        // The whole cache at resourceVersion 3: "a" as it was then, no "b" yet
        QSignalSpy past(&f.feed, &CacheFeed::cacheAt);
        f.feed.requestCacheAt(QStringLiteral("3"));
        QCOMPARE(past.size(), 1);
        const CachePast at3 = past.at(0).at(0).value<CachePast>();
        QVERIFY2(at3.error.isEmpty(), qPrintable(at3.error));
        // (The deleted object comes back as its DELETED event carried it: at the deletion's
        // resourceVersion, with the content it had at 3.)
        QCOMPARE(at3.batch.entries.size(), 1);
        QCOMPARE(at3.batch.entries.first().op, CacheEntry::Op::Upsert);
        QCOMPARE(at3.batch.entries.first().object.key(), QStringLiteral("default/a"));
        QCOMPARE(at3.batch.entries.first().object.value({QLatin1String("data"), QLatin1String("v")}).toString(),
            QStringLiteral("two"));
        // Before the history begins (its first change is at 2: 1 is the oldest it can rebuild): an
        // error naming the kind, and nothing to show
        f.feed.requestCacheAt(QStringLiteral("0"));
        QCOMPARE(past.size(), 2);
        const CachePast tooOld = past.at(1).at(0).value<CachePast>();
        QVERIFY2(tooOld.error.contains(QStringLiteral("ConfigMap")), qPrintable(tooOld.error));
        QVERIFY(tooOld.batch.entries.isEmpty());
    }

    void shouldReportAKindItCannotMapAndStopCleanly()
    {
        Fixture f;
        QSignalSpy failed(&f.feed, &CacheFeed::failed);
        f.feed.observe(&f.cache,
            {{QStringLiteral("nowhere.example.com"), QStringLiteral("v1"), QStringLiteral("Ghost")}, kConfigMap});
        QCOMPARE(failed.size(), 1);
        QVERIFY2(
            failed.at(0).at(0).toString().contains(QStringLiteral("Ghost")), qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(f.feed.kinds(), QStringList{QStringLiteral("ConfigMap")});
        f.next(); // the states of what it does observe
        // Stopped: later changes are not fed (the next batch, if any, would carry them)
        f.feed.stop();
        QVERIFY(f.feed.kinds().isEmpty());
        const qsizetype seen = f.batches.size();
        f.configMaps->added(object(QStringLiteral("ConfigMap"), QStringLiteral("late"), QStringLiteral("9")));
        // Observing again restarts the feed: its first batch holds "late" (from the store), once
        f.feed.observe(&f.cache, {kConfigMap});
        const CacheBatch again = f.next();
        QCOMPARE(f.batches.size(), seen + 1);
        QCOMPARE(entries(again), QStringList{QStringLiteral("upsert ConfigMap default/late@9 uid-late")});
    }
};

QTEST_GUILESS_MAIN(tst_CacheFeed)
#include "tst_cachefeed.moc"
