// SPDX-License-Identifier: Apache-2.0
// The guided tour's lesson detection (engine/workbench/tour.h), fed the snapshots the window
// receives: each lesson completes on the engine event that shows the learner did it, and not on
// the near miss next to it (the wrong lesson, a missing detail). The sample MyApplication operator
// gets its thirteen lessons (eleven without its webhooks); any other operator the generic ones, in
// its kind's words, completing on what every operator does. Pure logic: no clock, no server.
#include "engine/workbench/tour.h"
#include "engine/workbench/tourkubectl.h"
#include "tests/workbench/headless.h"
#include "tests/workbench/widgetoperator.h"

#include <QSignalSpy>
#include <QTest>

Q_DECLARE_METATYPE(opbench::Status)

using namespace opbench;
using namespace opbench::workbench;

namespace {

int lessonIndex(const QString &id, const TourSubject &subject = TourSubject::myApplication())
{
    const QList<TourLesson> all = Tour::lessons(subject);
    for (int i = 0; i < all.size(); ++i)
        if (all.at(i).id == id)
            return i;
    return -1;
}

TraceCall call(const QString &verb, const QString &kind, int code)
{
    TraceCall c;
    c.verb = verb;
    c.gvk = {QStringLiteral("apps"), QStringLiteral("v1"), kind};
    c.code = code;
    return c;
}

ReconcileTrace trace(QList<TraceCall> calls, ReconcileTrace::Result result = ReconcileTrace::Result::Success,
    int retries = 0, QList<Cause> causes = {})
{
    ReconcileTrace t;
    t.request = {QStringLiteral("default"), QStringLiteral("web")};
    t.calls = std::move(calls);
    t.result = result;
    t.retries = retries;
    for (Cause &c : causes)
        t.causes.merge(std::move(c), 32);
    return t;
}

InformerState informer(const QString &kind, bool synced, const QString &lastSyncRv)
{
    InformerState s;
    s.kind = kind;
    s.synced = synced;
    s.lastSyncRv = lastSyncRv;
    return s;
}

CacheBatch batchOf(QList<InformerState> informers)
{
    CacheBatch b;
    b.informers = std::move(informers);
    return b;
}

ControlState control(bool paused, QStringList pendingCalls = {})
{
    ControlState s;
    s.available = true;
    s.paused = paused;
    s.pendingCalls = std::move(pendingCalls);
    return s;
}

QueueSample queueWith(QStringList causes)
{
    QueueSample s;
    QueueRow r;
    r.key = QStringLiteral("default/web");
    r.state = QStringLiteral("queued");
    r.causes = std::move(causes);
    s.rows = {r};
    return s;
}

LeadershipState leadership(LeadershipState::Role role)
{
    LeadershipState s;
    s.role = role;
    return s;
}

/// An admission call about MyApplication default/`name` (a CREATE): mutating or validating,
/// allowed (with `patchOps` JSONPatch operations) or denied with `code`.
apiserver::WebhookCallRecord admissionCall(
    const QString &name, bool mutating, bool allowed, int patchOps = 0, int code = 422)
{
    apiserver::WebhookCallRecord r;
    r.mutating = mutating;
    r.webhook = mutating ? QStringLiteral("mmyapplication.example.com") : QStringLiteral("vmyapplication.example.com");
    r.operation = QStringLiteral("CREATE");
    r.group = QStringLiteral("example.com");
    r.version = QStringLiteral("v1alpha1");
    r.resource = QStringLiteral("myapplications");
    r.objectKind = QStringLiteral("MyApplication");
    r.namespaceName = QStringLiteral("default");
    r.name = name;
    r.allowed = allowed;
    r.code = allowed ? 200 : code;
    for (int i = 0; i < patchOps; ++i)
        r.patch.append(QJsonObject{{"op", "add"}, {"path", "/metadata/labels"}});
    return r;
}

/// A ConversionReview's call: MyApplication default/`name` converted to example.com/`version`.
apiserver::WebhookCallRecord conversionCall(const QString &name, const QString &version, bool ok = true)
{
    apiserver::WebhookCallRecord r;
    r.kind = apiserver::WebhookCallRecord::Kind::Conversion;
    r.webhook = QStringLiteral("myapplications.example.com");
    r.operation = QStringLiteral("CONVERT");
    r.group = QStringLiteral("example.com");
    r.version = version;
    r.objectKind = QStringLiteral("MyApplication");
    r.namespaceName = QStringLiteral("default");
    r.name = name;
    r.allowed = ok;
    r.code = ok ? 200 : 500;
    if (!ok)
        r.failure = apiserver::WebhookCallRecord::Failure::Timeout;
    return r;
}

/// The AdmissionLog's snapshots: the whole ring each time, numbered from 1.
class AdmissionFeed
{
public:
    AdmissionSnapshot add(QList<apiserver::WebhookCallRecord> records)
    {
        for (apiserver::WebhookCallRecord &r : records)
            m_snapshot.calls.append(WebhookCall{++m_snapshot.total, std::move(r)});
        return m_snapshot;
    }

private:
    AdmissionSnapshot m_snapshot;
};

} // namespace

class tst_TourLessons : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { testing::verifyNoGuiLibrariesLoaded(); }

    void shouldListThirteenLessonsInOrder()
    {
        QStringList ids;
        for (const TourLesson &l : Tour::lessons(TourSubject::myApplication())) {
            ids << l.id;
            QVERIFY2(
                !l.title.isEmpty() && !l.task.isEmpty() && !l.lesson.isEmpty() && !l.panel.isEmpty(), qPrintable(l.id));
        }
        QCOMPARE(ids,
            (QStringList{"sync", "follow-key", "level-triggered", "dedup", "step", "step-into", "backoff", "conflict",
                "admission", "conversion", "relist", "time-travel", "hand-off"}));
        QCOMPARE(Tour::lessons(TourSubject::myApplication()).at(8).panel, QStringLiteral("admissionDock"));
        QCOMPARE(Tour::lessons(TourSubject::myApplication()).at(9).panel, QStringLiteral("admissionDock"));
    }

    void shouldShareTheSyncLessonBetweenSubjects()
    {
        const TourLesson sample = Tour::lessons(TourSubject::myApplication()).first();
        const TourLesson widget = Tour::lessons(TourSubject::of(testing::widget::definition())).first();
        QCOMPARE(sample.id, QStringLiteral("sync"));
        QCOMPARE(sample.task, widget.task);
        QCOMPARE(sample.lesson, widget.lesson);
    }

    void shouldCompleteSyncOnACacheSyncedBeforeTheTourStarted()
    {
        Tour tour(TourSubject::myApplication());
        tour.observeCache(batchOf({informer(QStringLiteral("MyApplication"), true, QStringLiteral("5"))}));
        tour.start();
        QCOMPARE(tour.state().lesson.id, QStringLiteral("sync"));
        QVERIFY2(tour.state().done, "no later batch would say the cache synced");
    }

    void shouldAimTheFaultLessonsAtTheAppOfLessonTwo()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("backoff")));
        // Nothing created yet: a sample app.
        QVERIFY2(
            tour.state().lesson.fault.contains(QStringLiteral("name=frontend")), qPrintable(tour.state().lesson.fault));
        tour.start(lessonIndex(QStringLiteral("follow-key")));
        tour.observeTraces({trace({call(QStringLiteral("create"), QStringLiteral("Deployment"), 201)})});
        tour.start(lessonIndex(QStringLiteral("backoff")));
        const TourLesson backoff = tour.state().lesson;
        QCOMPARE(backoff.actionKind, QStringLiteral("fault"));
        // Only the operator's (User-Agent opbench/…) next 2 updates of that Deployment fail.
        QCOMPARE(backoff.fault,
            QStringLiteral("error:code=500,verb=update,resource=deployments,name=web,agent=opbench/,count=2"));
        QVERIFY(backoff.action.contains(QStringLiteral("web")));
        QVERIFY(!backoff.task.contains(QStringLiteral("{name}")));
        tour.next();
        QCOMPARE(tour.state().lesson.fault,
            QStringLiteral("error:code=409,verb=update,resource=deployments,name=web,agent=opbench/,count=1"));
        tour.next();
        QCOMPARE(tour.state().lesson.id, QStringLiteral("admission"));
        tour.next();
        // The conversion lesson reads that app at v1beta1, as kubectl get would.
        const TourLesson conversion = tour.state().lesson;
        QCOMPARE(conversion.actionKind, QStringLiteral("kubectl"));
        QCOMPARE(conversion.request.verb, QStringLiteral("get"));
        QCOMPARE(conversion.request.apiVersion, QStringLiteral("example.com/v1beta1"));
        QCOMPARE(conversion.request.name, QStringLiteral("web"));
        QCOMPARE(
            conversion.request.command, QStringLiteral("kubectl get myapplications.v1beta1.example.com web -o yaml"));
        QVERIFY(conversion.action.contains(QStringLiteral("web")));
        QVERIFY(!conversion.task.contains(QStringLiteral("{name}")));
        tour.next();
        QCOMPARE(tour.state().lesson.actionKind, QStringLiteral("relist"));
    }

    void shouldCompleteAdmissionOnADenialAndAPatchedCreateThatPassed()
    {
        Tour tour(TourSubject::myApplication());
        AdmissionFeed feed;
        // The samples' creates, defaulted and admitted before the lesson: not the learner's.
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("frontend"), true, true, 2),
            admissionCall(QStringLiteral("frontend"), false, true)}));
        tour.start(lessonIndex(QStringLiteral("admission")));
        QCOMPARE(tour.state().lesson.actionKind, QStringLiteral("kubectl"));
        QCOMPARE(tour.state().lesson.request.verb, QStringLiteral("create"));
        QCOMPARE(tour.state().lesson.request.name, QStringLiteral("bare"));
        QCOMPARE(tour.state()
                     .lesson.request.body.value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("image"))
                     .toString(),
            QStringLiteral("nginx"));
        tour.observeAdmission(feed.add({}));
        QVERIFY2(!tour.state().done, "the calls before the lesson began do not count");
        // kubectl create bare (nginx): defaulted (patched), then denied by the validating webhook.
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("bare"), true, true, 2),
            admissionCall(QStringLiteral("bare"), false, false)}));
        QVERIFY2(!tour.state().done, "the patched create was denied: no patch reached a stored object");
        // After the denial the button creates an app that passes.
        QCOMPARE(tour.state().lesson.request.name, QStringLiteral("tagged"));
        QCOMPARE(tour.state()
                     .lesson.request.body.value(QLatin1String("spec"))
                     .toObject()
                     .value(QLatin1String("image"))
                     .toString(),
            QStringLiteral("nginx:1.27"));
        QVERIFY(tour.state().lesson.action.contains(QStringLiteral("tagged")));
        // An update that changed nothing (no patch) and passed is not the lesson either.
        apiserver::WebhookCallRecord update = admissionCall(QStringLiteral("web"), true, true, 0);
        update.operation = QStringLiteral("UPDATE");
        apiserver::WebhookCallRecord updateAllowed = admissionCall(QStringLiteral("web"), false, true);
        updateAllowed.operation = QStringLiteral("UPDATE");
        tour.observeAdmission(feed.add({update, updateAllowed}));
        QVERIFY(!tour.state().done);
        // kubectl create tagged (nginx:1.27): patched, then admitted.
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("tagged"), true, true, 2)}));
        QVERIFY2(!tour.state().done, "patched, but not admitted yet");
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("tagged"), false, true)}));
        QVERIFY(tour.state().done);
        QVERIFY(tour.state().completed.contains(QStringLiteral("admission")));
    }

    void shouldCompleteAdmissionOnlyWithADenial()
    {
        Tour tour(TourSubject::myApplication());
        AdmissionFeed feed;
        tour.start(lessonIndex(QStringLiteral("admission")));
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("tagged"), true, true, 2),
            admissionCall(QStringLiteral("tagged"), false, true)}));
        QVERIFY2(!tour.state().done, "a defaulted create without the refused one");
        QCOMPARE(tour.state().lesson.request.name, QStringLiteral("bare"));
        // A webhook that could not be reached is no denial by the validating webhook.
        apiserver::WebhookCallRecord unreachable = admissionCall(QStringLiteral("bare"), false, false, 0, 500);
        unreachable.failure = apiserver::WebhookCallRecord::Failure::Unreachable;
        tour.observeAdmission(feed.add({unreachable}));
        QVERIFY(!tour.state().done);
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("bare"), false, false)}));
        QVERIFY(tour.state().done);
    }

    void shouldCompleteConversionOnAReadConvertedToV1beta1()
    {
        Tour tour(TourSubject::myApplication());
        AdmissionFeed feed;
        tour.observeAdmission(feed.add({conversionCall(QStringLiteral("web"), QStringLiteral("v1beta1"))}));
        tour.start(lessonIndex(QStringLiteral("conversion")));
        tour.observeAdmission(feed.add({}));
        QVERIFY2(!tour.state().done, "a conversion before the lesson began");
        tour.observeAdmission(feed.add({admissionCall(QStringLiteral("web"), true, true, 2)}));
        QVERIFY2(!tour.state().done, "an admission call is no conversion");
        tour.observeAdmission(feed.add({conversionCall(QStringLiteral("web"), QStringLiteral("v1alpha1"))}));
        QVERIFY2(!tour.state().done, "converted to the storage version, not read as v1beta1");
        tour.observeAdmission(feed.add({conversionCall(QStringLiteral("web"), QStringLiteral("v1beta1"), false)}));
        QVERIFY2(!tour.state().done, "a conversion that failed");
        tour.observeAdmission(feed.add({conversionCall(QStringLiteral("web"), QStringLiteral("v1beta1"))}));
        QVERIFY(tour.state().done);
    }

    void shouldWordErrorsAsKubectlPrintsThem_data()
    {
        QTest::addColumn<Status>("status");
        QTest::addColumn<QString>("printed");
        // kubectl's cmdutil.CheckErr: an Invalid Status with causes names the kind and the object,
        // then each cause as "field: message" (the server's message is not printed).
        const StatusCause image{QStringLiteral("FieldValueInvalid"),
            QStringLiteral("Invalid value: \"nginx\": must carry a tag or a digest"), QStringLiteral("spec.image")};
        const StatusCause replicas{QStringLiteral("FieldValueInvalid"),
            QStringLiteral("Invalid value: 11: must be at most 10"), QStringLiteral("spec.replicas")};
        QTest::newRow("one cause") << Status::invalid(
            QStringLiteral("example.com"), QStringLiteral("MyApplication"), QStringLiteral("bare"), {image})
                                   << QStringLiteral("The MyApplication \"bare\" is invalid: spec.image: Invalid "
                                                     "value: \"nginx\": must carry a tag or a digest");
        QTest::newRow("two causes") << Status::invalid(
            QStringLiteral("example.com"), QStringLiteral("MyApplication"), QStringLiteral("bare"), {image, replicas})
                                    << QStringLiteral("The MyApplication \"bare\" is invalid: \n* spec.image: Invalid "
                                                      "value: \"nginx\": must carry a tag or a digest\n* "
                                                      "spec.replicas: Invalid value: 11: must be at most 10");
        QTest::newRow("not found") << Status::notFound(
            QStringLiteral("example.com"), QStringLiteral("myapplications"), QStringLiteral("gone"))
                                   << QStringLiteral("Error from server (NotFound): myapplications.example.com "
                                                     "\"gone\" not found");
    }

    void shouldWordErrorsAsKubectlPrintsThem()
    {
        QFETCH(Status, status);
        QFETCH(QString, printed);
        QCOMPARE(kubectlErrorText(status), printed);
    }

    void shouldCompleteConflictOnA409ThenARequeueThenASuccess()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("conflict")));
        tour.observeTraces({trace({})});
        QVERIFY2(!tour.state().done, "a success without a conflict before it");
        tour.observeTraces({trace(
            {call(QStringLiteral("update"), QStringLiteral("Deployment"), 409)}, ReconcileTrace::Result::Requeue)});
        QVERIFY2(!tour.state().done, "the requeue has not been retried yet");
        tour.observeTraces({trace({call(QStringLiteral("update"), QStringLiteral("Deployment"), 200)})});
        QVERIFY(tour.state().done);
    }

    void shouldCompleteSyncOnlyWhenEveryInformerSynced()
    {
        Tour tour(TourSubject::myApplication());
        QSignalSpy changed(&tour, &Tour::stateChanged);
        tour.start(lessonIndex(QStringLiteral("sync")));
        QCOMPARE(changed.size(), 1);
        tour.observeCache(batchOf({informer(QStringLiteral("MyApplication"), true, QStringLiteral("5")),
            informer(QStringLiteral("Deployment"), false, QString())}));
        QVERIFY(!tour.state().done);
        tour.observeCache(batchOf({informer(QStringLiteral("MyApplication"), true, QStringLiteral("5")),
            informer(QStringLiteral("Deployment"), true, QStringLiteral("5"))}));
        QVERIFY(tour.state().done);
        QCOMPARE(tour.state().completed, QStringList{QStringLiteral("sync")});
    }

    void shouldCompleteFollowKeyOnASuccessfulCreate()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("follow-key")));
        tour.observeTraces({trace({call(QStringLiteral("get"), QStringLiteral("MyApplication"), 200)})});
        QVERIFY(!tour.state().done);
        tour.observeTraces({trace({call(QStringLiteral("create"), QStringLiteral("Deployment"), 409)})});
        QVERIFY2(!tour.state().done, "a refused create is not the lesson");
        tour.observeTraces({trace({call(QStringLiteral("create"), QStringLiteral("Deployment"), 201)})});
        QVERIFY(tour.state().done);
    }

    void shouldCompleteLevelTriggeredOnARecreateCausedByADeletedChild()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("level-triggered")));
        const QList<TraceCall> create{call(QStringLiteral("create"), QStringLiteral("Deployment"), 201)};
        tour.observeTraces({trace(create, ReconcileTrace::Result::Success, 0,
            {Cause::watchEvent(Cause::EventType::Deleted, QStringLiteral("MyApplication.v1alpha1.example.com"),
                QStringLiteral("default/web"), QStringLiteral("7"))})});
        QVERIFY2(!tour.state().done, "the app's own delete event is not a child's");
        tour.observeTraces({trace(create, ReconcileTrace::Result::Success, 0,
            {Cause::ownerMapping(Cause::EventType::Modified, QStringLiteral("Deployment.v1.apps"),
                QStringLiteral("default/web"), QStringLiteral("8"))})});
        QVERIFY2(!tour.state().done, "a child's update is not its deletion");
        tour.observeTraces({trace(create, ReconcileTrace::Result::Success, 0,
            {Cause::ownerMapping(Cause::EventType::Deleted, QStringLiteral("Deployment.v1.apps"),
                QStringLiteral("default/web"), QStringLiteral("9"))})});
        QVERIFY(tour.state().done);
    }

    void shouldCompleteDedupOnTwoWatchCausesWhilePaused()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("dedup")));
        const QueueSample merged = queueWith({QStringLiteral("watch MODIFIED MyApplication default/web @7"),
            QStringLiteral("watch MODIFIED MyApplication default/web @8")});
        tour.observeQueue(merged);
        QVERIFY2(!tour.state().done, "not paused yet");
        tour.observeControl(control(true));
        tour.observeQueue(
            queueWith({QStringLiteral("watch MODIFIED MyApplication default/web @7"), QStringLiteral("manual")}));
        QVERIFY2(!tour.state().done, "one watch cause is no de-duplication");
        tour.observeQueue(merged);
        QVERIFY(tour.state().done);
    }

    void shouldCompleteStepOnAReconcileWhilePaused()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("step")));
        tour.observeTraces({trace({})});
        QVERIFY2(!tour.state().done, "a reconcile of a running controller is no step");
        tour.observeControl(control(true));
        tour.observeTraces({trace({})});
        QVERIFY(tour.state().done);
    }

    void shouldCompleteStepIntoOnAHaltedCall()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("step-into")));
        tour.observeControl(control(true));
        QVERIFY(!tour.state().done);
        tour.observeControl(control(true, {QStringLiteral("get MyApplication default/web")}));
        QVERIFY(tour.state().done);
    }

    void shouldCompleteBackoffOnARetriedError()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("backoff")));
        tour.observeTraces({trace({}, ReconcileTrace::Result::Error, 0)});
        QVERIFY2(!tour.state().done, "a first failure has not been retried yet");
        tour.observeTraces({trace({}, ReconcileTrace::Result::Success, 2)});
        QVERIFY(!tour.state().done);
        tour.observeTraces({trace({}, ReconcileTrace::Result::Error, 1)});
        QVERIFY(tour.state().done);
    }

    void shouldCompleteRelistOnANewListAfterTheLessonBegan()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("relist")));
        const auto at = [](int relists) {
            InformerState s = informer(QStringLiteral("MyApplication"), true, QStringLiteral("5"));
            s.relists = relists;
            return batchOf({s});
        };
        tour.observeCache(at(1)); // what it was when the lesson began
        tour.observeCache(at(1));
        QVERIFY(!tour.state().done);
        tour.observeCache(at(2));
        QVERIFY(tour.state().done);
    }

    void shouldCompleteTimeTravelOnAReachedPast()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("time-travel")));
        CachePast tooOld;
        tooOld.resourceVersion = QStringLiteral("1");
        tooOld.error = QStringLiteral("The history does not reach back");
        tour.observeTimeTravel(tooOld);
        QVERIFY(!tour.state().done);
        CachePast reached;
        reached.resourceVersion = QStringLiteral("5");
        tour.observeTimeTravel(reached);
        QVERIFY(tour.state().done);
    }

    void shouldCompleteHandOffOnlyAfterTakingBack()
    {
        Tour tour(TourSubject::myApplication());
        tour.start(lessonIndex(QStringLiteral("hand-off")));
        tour.observeLeadership(leadership(LeadershipState::Role::Leader));
        QVERIFY2(!tour.state().done, "leading without a hand-off");
        tour.observeLeadership(leadership(LeadershipState::Role::HandedOff));
        QVERIFY(!tour.state().done);
        tour.observeLeadership(leadership(LeadershipState::Role::Leader));
        QVERIFY(tour.state().done);
    }

    void shouldIgnoreEventsOfAnotherLessonAndKeepProgress()
    {
        Tour tour(TourSubject::myApplication());
        tour.observeControl(control(true, {QStringLiteral("get MyApplication default/web")}));
        QCOMPARE(tour.state().index, -1); // not started: nothing completes
        tour.start(lessonIndex(QStringLiteral("sync")));
        tour.observeControl(control(true, {QStringLiteral("get MyApplication default/web")}));
        QVERIFY2(!tour.state().done, "a step-into halt does not complete the sync lesson");
        tour.observeCache(batchOf({informer(QStringLiteral("MyApplication"), true, QStringLiteral("5"))}));
        QVERIFY(tour.state().done);
        // Next, back: the lesson done before stays done; the list of completed ones is kept
        tour.next();
        QCOMPARE(tour.state().lesson.id, QStringLiteral("follow-key"));
        QVERIFY(!tour.state().done);
        tour.back();
        QVERIFY(tour.state().done);
        QCOMPARE(tour.state().completed, QStringList{QStringLiteral("sync")});
        tour.start(int(Tour::lessons(TourSubject::myApplication()).size()) - 1);
        tour.next();
        QVERIFY(tour.state().finished);
        tour.stop();
        QCOMPARE(tour.state().index, -1);
    }

    void shouldOfferMyApplicationsLessonsOnlyForMyApplication()
    {
        OperatorDefinition sample;
        sample.kinds = {{QStringLiteral("example.com"), QStringLiteral("v1alpha1"), QStringLiteral("MyApplication")},
            {QStringLiteral("apps"), QStringLiteral("v1"), QStringLiteral("Deployment")}};
        QVERIFY(TourSubject::of(sample).sampleOperator);
        QVERIFY2(!TourSubject::of(sample).webhooks, "this definition serves no webhooks");
        QCOMPARE(Tour::lessons(TourSubject::of(sample)).size(), 11);
        QCOMPARE(lessonIndex(QStringLiteral("admission"), TourSubject::of(sample)), -1);
        QCOMPARE(lessonIndex(QStringLiteral("conversion"), TourSubject::of(sample)), -1);
        sample.webhooks = [](Manager *) -> Expected<void> { return {}; };
        QVERIFY(TourSubject::of(sample).webhooks);
        QCOMPARE(Tour::lessons(TourSubject::of(sample)).size(), 13);

        const TourSubject widget = TourSubject::of(testing::widget::definition());
        QVERIFY(!widget.sampleOperator);
        QCOMPARE(widget.kind, QStringLiteral("Widget"));
        QCOMPARE(widget.childKind, QStringLiteral("ConfigMap"));
        QStringList ids;
        for (const TourLesson &l : Tour::lessons(widget)) {
            ids << l.id;
            const QString text = l.title + l.task + l.lesson;
            for (const char *word : {"MyApplication", "an app", "nginx", "Deployment"})
                QVERIFY2(!text.contains(QLatin1String(word)), qPrintable(l.id + QStringLiteral(": ") + text));
        }
        QCOMPARE(ids,
            (QStringList{"sync", "follow-key", "level-triggered", "dedup", "step", "step-into", "backoff", "relist",
                "time-travel"}));
        QVERIFY(Tour::lessons(widget).at(1).task.contains(QStringLiteral("Create a Widget")));
        QVERIFY(Tour::lessons(widget).at(2).task.contains(QStringLiteral("ConfigMap")));
        Tour tour(widget);
        QCOMPARE(tour.state().count, 9); // what the intro and "Lesson n of N" count
        // An operator of another kind with webhooks: the sample's webhook lessons are not its.
        OperatorDefinition hooked = testing::widget::definition();
        hooked.webhooks = [](Manager *) -> Expected<void> { return {}; };
        QVERIFY(!TourSubject::of(hooked).webhooks);
        QCOMPARE(Tour::lessons(TourSubject::of(hooked)).size(), 9);

        TourSubject lonely = widget; // owns nothing: no child to delete
        lonely.childKind.clear();
        QVERIFY(!Tour::lessons(lonely).isEmpty());
        QCOMPARE(lessonIndex(QStringLiteral("level-triggered"), lonely), -1);
    }

    void shouldCompleteSyncAtOnceWhenTheCacheSyncedBeforeTheLesson()
    {
        Tour tour(TourSubject::of(testing::widget::definition()));
        tour.observeCache(batchOf({informer(QStringLiteral("Widget"), true, QStringLiteral("5")),
            informer(QStringLiteral("ConfigMap"), true, QStringLiteral("5"))}));
        tour.start(lessonIndex(QStringLiteral("sync"), tour.subject()));
        QVERIFY2(tour.state().done, "the cache was synced before the lesson began: no batch will come to say so");
        Tour notYet(TourSubject::myApplication());
        notYet.observeCache(batchOf({informer(QStringLiteral("MyApplication"), false, QString())}));
        notYet.start(lessonIndex(QStringLiteral("sync")));
        QVERIFY(!notYet.state().done);
    }

    void shouldCompleteTheGenericLessonsOnAnyOperator()
    {
        Tour tour(TourSubject::of(testing::widget::definition()));
        const TourSubject &s = tour.subject();
        // One key from event to write: any write that went through (this operator only writes status)
        tour.start(lessonIndex(QStringLiteral("follow-key"), s));
        tour.observeTraces({trace({call(QStringLiteral("get"), QStringLiteral("Widget"), 200)})});
        QVERIFY(!tour.state().done);
        tour.observeTraces({trace({call(QStringLiteral("updateStatus"), QStringLiteral("Widget"), 409)})});
        QVERIFY2(!tour.state().done, "a refused write is not the lesson");
        tour.observeTraces({trace({call(QStringLiteral("updateStatus"), QStringLiteral("Widget"), 200)})});
        QVERIFY(tour.state().done);
        // The level-triggered child: the ConfigMap comes back after its deletion
        tour.start(lessonIndex(QStringLiteral("level-triggered"), s));
        tour.observeTraces({trace({call(QStringLiteral("create"), QStringLiteral("ConfigMap"), 201)},
            ReconcileTrace::Result::Success, 0,
            {Cause::ownerMapping(Cause::EventType::Deleted, QStringLiteral("ConfigMap.v1"), QStringLiteral("default/w"),
                QStringLiteral("9"))})});
        QVERIFY(tour.state().done);
        // Step, step into, backoff
        tour.start(lessonIndex(QStringLiteral("step"), s));
        tour.observeControl(control(true));
        tour.observeTraces({trace({})});
        QVERIFY(tour.state().done);
        tour.start(lessonIndex(QStringLiteral("step-into"), s));
        tour.observeControl(control(true, {QStringLiteral("get Widget default/w")}));
        QVERIFY(tour.state().done);
        tour.start(lessonIndex(QStringLiteral("backoff"), s));
        tour.observeTraces({trace({}, ReconcileTrace::Result::Error, 1)});
        QVERIFY(tour.state().done);
    }

    void shouldHintInTheKindsOwnWords()
    {
        const TourSubject widget = TourSubject::of(testing::widget::definition());
        QVERIFY2(idleHint(widget).contains(QStringLiteral("Try editing a Widget, deleting its ConfigMap")),
            qPrintable(idleHint(widget)));
        QVERIFY(!idleHint(widget).contains(QStringLiteral("app")));
        TourSubject order;
        order.kind = QStringLiteral("Order");
        QVERIFY2(idleHint(order).contains(QStringLiteral("Try editing an Order")), qPrintable(idleHint(order)));
        QVERIFY(idleHint(TourSubject::myApplication())
                    .contains(QStringLiteral("a MyApplication, deleting its Deployment")));
    }
};

QTEST_GUILESS_MAIN(tst_TourLessons)
#include "tst_tourlessons.moc"
