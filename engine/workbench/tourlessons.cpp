// SPDX-License-Identifier: Apache-2.0
// The tour's lessons (engine/workbench/tour.h): the sample operator's eleven (thirteen with its
// webhooks), and the generic ones any operator gets, in its kind's own words.
#include "engine/workbench/tour.h"

#include "engine/workbench/createform.h"

#include <QJsonObject>

namespace opbench::workbench {

namespace {

QString tr(const char *text) { return Tour::tr(text); }

/// The first lesson of every tour: the same for any operator.
TourLesson syncLesson()
{
    return {QStringLiteral("sync"), tr("The informer fills the cache"),
        tr("Watch the Cache panel and the status bar until every kind says synced."),
        tr("An informer LISTs each kind once, then WATCHes for changes; the reconciler only ever reads this local "
           "cache. People expect a read right after their own write to see it — it may not yet: the cache is "
           "eventually consistent."),
        QStringLiteral("cacheDock")};
}

/// The first generic lessons: the cache, one key, the level-triggered child (when it owns one).
QList<TourLesson> genericLessonsFirst(const TourSubject &s)
{
    QList<TourLesson> out{
        syncLesson(),
        {QStringLiteral("follow-key"), tr("One key, from watch event to write"),
            tr("Create %1 with the Children panel's form.").arg(s.aKind()),
            tr("The watch event becomes a queue item (namespace/name only — never the object), a worker hands it to "
               "Reconcile, which reads the %1 from the cache and writes what it owns or its status. Reconcile gets a "
               "key, not an event: it must look at the world, not at what changed.")
                .arg(s.kind),
            QStringLiteral("reconcilesDock")},
    };
    if (!s.childKind.isEmpty()) {
        out.append({QStringLiteral("level-triggered"), tr("Level-triggered: the child comes back"),
            tr("In the Children panel, delete a %1 that belongs to %2.").arg(s.childKind, s.aKind()),
            tr("The %1's DELETE event is mapped to its owner (Owns), the owner is reconciled, and the %1 is created "
               "again. The reconciler never handled \"a delete\": it compared desired with actual state.")
                .arg(s.childKind),
            QStringLiteral("childrenDock")});
    }
    out.append({QStringLiteral("dedup"), tr("The queue de-duplicates"),
        tr("Pause (F6), then change one %1 twice (kubectl edit or kubectl patch; File ▸ Write kubeconfig… gives the "
           "command); look at the Queue panel.")
            .arg(s.kind),
        tr("Both changes wait as ONE queue item with both causes merged: a key is never queued twice. So Reconcile "
           "may run once for many events — counting reconciles to count events is a classic mistake."),
        QStringLiteral("queueDock")});
    return out;
}

/// `lesson` with a button that arms `fault` (or, for kind "relist", drops the watches).
TourLesson withAction(TourLesson lesson, const QString &label, const QString &kind, const QString &fault = {})
{
    lesson.action = label;
    lesson.actionKind = kind;
    lesson.fault = fault;
    return lesson;
}

TourLesson relistLesson()
{
    return withAction({QStringLiteral("relist"), tr("A dropped watch and a relist"),
                          tr("Press \"Drop the watches\" below (it compacts the history first, as a busy cluster "
                             "does); look at the Cache panel's header and the Pipeline's reflector."),
                          tr("The reflector resumes its watch from the last resourceVersion; when that is too old "
                             "(410 Gone) it LISTs everything again — \"410 → relist\". Anything missed is still "
                             "reconciled, because the controller is level-triggered."),
                          QStringLiteral("cacheDock")},
        tr("Drop the watches"), QStringLiteral("relist"));
}

/// The sample's backoff and conflict lessons: a fault armed for the operator's next writes of
/// the Deployment {name} (the app of lesson 2), never for kubectl's.
QList<TourLesson> faultLessons()
{
    const QString writes = QStringLiteral("verb=update,resource=deployments,name={name},agent=opbench/");
    return {
        withAction({QStringLiteral("backoff"), tr("Errors and backoff"),
                       tr("Resume (F5) if paused, press \"Fail the next 2 updates\", then change app {name}'s "
                          "replicas (kubectl patch myapplication {name} --type merge -p "
                          "'{\"spec\":{\"replicas\":4}}'). Watch its key in the Queue panel."),
                       tr("The operator's update of Deployment {name} fails twice (500): each failed reconcile is "
                          "requeued with exponential backoff (5 ms, then 10 ms, … up to 1000 s per item, and a 10 qps "
                          "bucket overall), and the third try succeeds. Returning an error is how you ask for a "
                          "retry; looping inside Reconcile is not."),
                       QStringLiteral("queueDock")},
            tr("Fail the next 2 updates of Deployment {name}"), QStringLiteral("fault"),
            QStringLiteral("error:code=500,") + writes + QStringLiteral(",count=2")),
        withAction({QStringLiteral("conflict"), tr("A conflict absorbed by a requeue"),
                       tr("Press \"Make the next update conflict\", then change app {name}'s replicas again. In the "
                          "Reconciles panel: the update's 409, the requeue, and the retry that succeeds."),
                       tr("409 Conflict means the write carried an old resourceVersion: someone changed the object "
                          "since the cache saw it. It is routine, not a failure: the reconciler requeues, and the "
                          "next reconcile reads the newer object and writes again. Never retry the stale object in "
                          "a loop."),
                       QStringLiteral("reconcilesDock")},
            tr("Make the next update of Deployment {name} conflict"), QStringLiteral("fault"),
            QStringLiteral("error:code=409,") + writes + QStringLiteral(",count=1")),
    };
}

/// `kubectl create -f NAME.yaml` of app NAME with `image` (v1alpha1, namespace default).
TourRequest createApp(const QString &name, const QString &image)
{
    TourRequest r;
    r.verb = QStringLiteral("create");
    r.apiVersion = QStringLiteral("example.com/v1alpha1");
    r.resource = QStringLiteral("myapplications");
    r.namespaceName = QStringLiteral("default");
    r.name = name;
    r.body = QJsonObject{{QStringLiteral("apiVersion"), r.apiVersion},
        {QStringLiteral("kind"), QStringLiteral("MyApplication")},
        {QStringLiteral("metadata"),
            QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("namespace"), r.namespaceName}}},
        {QStringLiteral("spec"), QJsonObject{{QStringLiteral("image"), image}}}};
    r.command = QStringLiteral("kubectl create -f %1.yaml   # spec.image: %2").arg(name, image);
    return r;
}

/// The sample's webhook lessons: the API server calls the operator's defaulting and validating
/// webhooks on a create, and its conversion webhook on a read at the served version v1beta1.
QList<TourLesson> webhookLessons()
{
    TourLesson admission = withAction({QStringLiteral("admission"), tr("Admission: defaulting and validation"),
                                          tr("Press \"Create app bare\": kubectl creates an app whose image, nginx, "
                                             "has no tag (or use the Children panel's form). Read the refusal "
                                             "below, then press \"Create app tagged\" (nginx:1.27). In the Admission "
                                             "dock, select a \"patched\" call: the labels the defaulting webhook "
                                             "added."),
                                          tr("The API server calls the webhooks, not your controller, before anything "
                                             "is stored: mutating (defaulting) webhooks first, whose JSONPatch it "
                                             "applies, then validating ones, which see the defaulted object and only "
                                             "allow or deny. A denial (422 on spec.image) is the client's error: "
                                             "nothing stored, no watch event, no reconcile. Defaults belong here or "
                                             "in the schema, not in Reconcile."),
                                          QStringLiteral("admissionDock")},
        tr("Create app bare (image nginx) as kubectl"), QStringLiteral("kubectl"));
    admission.request = createApp(QStringLiteral("bare"), QStringLiteral("nginx"));
    admission.thenAction = tr("Create app tagged (image nginx:1.27) as kubectl");
    admission.thenRequest = createApp(QStringLiteral("tagged"), QStringLiteral("nginx:1.27"));

    TourLesson conversion = withAction({QStringLiteral("conversion"), tr("Conversion between versions"),
                                           tr("Press \"Read app {name} as v1beta1\" (kubectl get "
                                              "myapplications.v1beta1.example.com {name} -o yaml). Below: spec.image "
                                              "split into repository and tag. In the Admission dock: the "
                                              "ConversionReview, \"converted to v1beta1\"."),
                                           tr("The CRD serves v1alpha1 and v1beta1 but stores only v1alpha1, its "
                                              "storage version. A read (or write) at another served version makes "
                                              "the API server send a ConversionReview to the conversion webhook. "
                                              "v1alpha1 is the hub, v1beta1 a spoke converting to and from it: N "
                                              "versions need N−1 conversions, each lossless both ways. The controller "
                                              "reads one version through its informer and never converts."),
                                           QStringLiteral("admissionDock")},
        tr("Read app {name} as v1beta1"), QStringLiteral("kubectl"));
    TourRequest &read = conversion.request;
    read.verb = QStringLiteral("get");
    read.apiVersion = QStringLiteral("example.com/v1beta1");
    read.resource = QStringLiteral("myapplications");
    read.namespaceName = QStringLiteral("default");
    read.name = QStringLiteral("{name}");
    read.command = QStringLiteral("kubectl get myapplications.v1beta1.example.com {name} -o yaml");
    return {admission, conversion};
}

/// Stepping: the lessons after the first ones, for any operator.
QList<TourLesson> stepLessons()
{
    return {
        {QStringLiteral("step"), tr("Step through one reconcile"), tr("While paused, press Step (F10)."),
            tr("Exactly one queued key is reconciled and the workers stay paused. The trace shows why it ran (its "
               "causes), what it read and what it wrote."),
            QStringLiteral("reconcilesDock")},
        {QStringLiteral("step-into"), tr("Step into the client calls"),
            tr("Press Step into (F11): the reconcile halts before each client call; Step lets one call go out."),
            tr("Reads come from the cache (instant), writes go to the API server. Each write changes the object and "
               "triggers new watch events — for your own status writes too, unless a predicate filters them."),
            QStringLiteral("reconcilesDock")},
    };
}

TourLesson timeTravelLesson()
{
    return {QStringLiteral("time-travel"), tr("Time travel"),
        tr("Drag the Cache panel's history slider (it starts at \"live\", on the right) to the left."),
        tr("The cache is rebuilt as it was at an earlier resourceVersion from the informers' histories: what the "
           "reconciler could have seen then."),
        QStringLiteral("cacheDock")};
}

/// The lessons after the first ones, for any operator: stepping, backoff, relist, time travel.
/// `aKind` names one object of the For kind ("a Guestbook", "an app").
QList<TourLesson> genericLessonsLast(const QString &aKind)
{
    QList<TourLesson> out = stepLessons();
    out.append({QStringLiteral("backoff"), tr("Errors and backoff"),
        tr("Resume (F5), then in the Faults panel turn on API errors and create or change %1.").arg(aKind),
        tr("A failed reconcile is requeued with exponential backoff (5 ms, 10 ms, … up to 1000 s per item, and a "
           "10 qps bucket overall). Returning an error is how you ask for a retry; looping inside Reconcile is "
           "not. Turn the API errors off again after this lesson."),
        QStringLiteral("queueDock")});
    out.append(relistLesson());
    out.append(timeTravelLesson());
    return out;
}

/// The MyApplication sample's lessons (its kind, its Deployment, its webhooks, its headless build).
QList<TourLesson> myApplicationLessons(bool webhooks)
{
    QList<TourLesson> out{
        syncLesson(),
        {QStringLiteral("follow-key"), tr("One key, from watch event to write"),
            tr("Create an app with the Children panel's form (any name, image nginx:1.25)."),
            tr("The watch event becomes a queue item (namespace/name only — never the object), a worker hands it to "
               "Reconcile, which reads the app from the cache and creates its Deployment. Reconcile gets a key, not an "
               "event: it must look at the world, not at what changed."),
            QStringLiteral("reconcilesDock")},
        {QStringLiteral("level-triggered"), tr("Level-triggered: the child comes back"),
            tr("In the Children panel, delete an app's Deployment."),
            tr("The Deployment's DELETE event is mapped to its owner (Owns), the owner is reconciled, and the "
               "Deployment "
               "is created again. The reconciler never handled \"a delete\": it compared desired with actual state."),
            QStringLiteral("childrenDock")},
        {QStringLiteral("dedup"), tr("The queue de-duplicates"),
            tr("Pause (F6), then change one app twice (kubectl edit or kubectl patch, File ▸ Write kubeconfig… gives "
               "the "
               "command); look at the Queue panel."),
            tr("Both changes wait as ONE queue item with both causes merged: a key is never queued twice. So Reconcile "
               "may run once for many events — counting reconciles to count events is a classic mistake."),
            QStringLiteral("queueDock")},
    };
    out += stepLessons() + faultLessons(); // the write path, then what the API server does on a write
    if (webhooks)
        out += webhookLessons();
    out.append(relistLesson());
    out.append(timeTravelLesson());
    out.append({QStringLiteral("hand-off"), tr("Leader election and hand-off"),
        tr("Hand off (Ctrl+H) to the headless build, then Take back."),
        tr("Only the Lease holder reconciles; the others wait with warm caches. A leader that cannot renew within "
           "the renew deadline must stop at once, or two replicas write at the same time."),
        QStringLiteral("leadershipDock")});
    return out;
}

} // namespace

TourSubject TourSubject::myApplication()
{
    TourSubject s;
    s.kind = QStringLiteral("MyApplication");
    s.childKind = QStringLiteral("Deployment");
    s.sampleOperator = true;
    s.webhooks = true;
    return s;
}

TourSubject TourSubject::of(const OperatorDefinition &def)
{
    TourSubject s;
    const GroupVersionKind primary = forKindOf(def);
    s.kind = primary.kind;
    s.childKind = def.kinds.value(1).kind;
    s.sampleOperator = primary.group == u"example.com" && primary.kind == u"MyApplication";
    s.webhooks = s.sampleOperator && bool(def.webhooks);
    return s;
}

QString TourSubject::aKind() const
{
    const bool vowel = !kind.isEmpty() && QStringLiteral("AEIOU").contains(kind.front().toUpper());
    return (vowel ? QStringLiteral("an ") : QStringLiteral("a ")) + kind;
}

QString idleHint(const TourSubject &s)
{
    if (s.kind.isEmpty())
        return Tour::tr("Nothing to reconcile: the queue is empty. Try a fault (Faults).");
    if (s.childKind.isEmpty())
        return Tour::tr("Nothing to reconcile: the queue is empty. Try editing %1 or a fault (Faults).").arg(s.aKind());
    return Tour::tr("Nothing to reconcile: the queue is empty. Try editing %1, deleting its %2 (Children), or a "
                    "fault (Faults).")
        .arg(s.aKind(), s.childKind);
}

QList<TourLesson> Tour::lessons(const TourSubject &subject)
{
    if (subject.sampleOperator)
        return myApplicationLessons(subject.webhooks);
    return genericLessonsFirst(subject) + genericLessonsLast(subject.aKind());
}

} // namespace opbench::workbench
