// SPDX-License-Identifier: Apache-2.0
#pragma once
// Tour: the guided tour of the controller pattern. Short lessons, each one a thing the learner
// does in the window and then sees; a lesson completes when the engine's own events show that it
// happened (not when a button is pressed). Pure logic on the snapshots the window already
// receives — the UI feeds them in and shows state(); nothing here touches a widget.
//
// The lessons follow the hosted operator (TourSubject): the sample MyApplication operator gets
// its thirteen lessons (its backoff and conflict lessons arm a fault for the operator's own writes; its admission and
// conversion lessons, only when its webhooks are served and reported, send requests as kubectl would: TourKubectl);
// any other operator gets the generic ones, in its kind's words, each completing on what every operator does (the
// cache syncs, a key goes from event to write, a deleted child comes back, step / step into, backoff, …).
//
//   Tour tour(TourSubject::of(definition));
//   connect(session->cacheFeed(), &CacheFeed::batch, &tour, &Tour::observeCache);  // … and the rest
//   tour.start();                    // stateChanged() follows each step

#include "engine/workbench/admissionlog.h"
#include "engine/workbench/leadershipstate.h"
#include "engine/workbench/snapshots.h"

#include "engine/controller/reconciletrace.h"
#include "engine/sdk/operatordefinition.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QSet>

#include <functional>

namespace opbench::workbench {

/// A request a lesson's button sends as kubectl would (TourKubectl runs it on the engine thread).
struct TourRequest
{
    QString verb;       ///< "create" or "get" ("": no request)
    QString apiVersion; ///< "example.com/v1beta1"
    QString resource;   ///< "myapplications"
    QString namespaceName;
    QString name;     ///< get: the object read; create: the object's name
    QJsonObject body; ///< create: the object sent
    QString command;  ///< the kubectl command it stands for ("kubectl create -f bare.yaml")
};

/// One lesson as the Tour panel shows it.
struct TourLesson
{
    QString id;     ///< "sync", "follow-key", …
    QString title;  ///< "The informer syncs the cache"
    QString task;   ///< what to do, in the window's words
    QString lesson; ///< the controller-runtime concept and the detail people get wrong
    QString panel;  ///< objectName of the dock that shows it (highlighted)
    /// A button the lesson offers ("" = none): actionKind "fault" arms `fault` (FaultSpec
    /// syntax), "relist" compacts the history and drops the watches, "kubectl" sends `request`.
    /// In a lesson as Tour::state() gives it, {name} in task, action, fault and request is the
    /// app the tour follows.
    QString action;
    QString actionKind;
    QString fault;
    TourRequest request;
    /// "kubectl": the button's next label and request, once the lesson saw the first one's
    /// effect (the admission lesson: the denial, then a create that passes). Empty: none.
    QString thenAction;
    TourRequest thenRequest;
};

/// The operator the tour is about.
struct TourSubject
{
    QString kind;                ///< the For kind ("Guestbook")
    QString childKind;           ///< the first kind it owns ("ConfigMap"); empty: none
    bool sampleOperator = false; ///< the MyApplication sample: its own lessons
    /// The sample's admission and conversion webhooks are served, and the API server reports
    /// their calls (the embedded cluster): its two webhook lessons.
    bool webhooks = false;

    /// The sample as the workbench runs it on its embedded cluster (webhooks served).
    static TourSubject myApplication();
    /// The subject of `def`: its For kind, its first other kind, whether it is MyApplication's
    /// and whether it declares webhooks (a real cluster does not report their calls: the
    /// window clears `webhooks` there).
    static TourSubject of(const OperatorDefinition &def);
    /// "a Guestbook", "an Order".
    QString aKind() const;
};

/// The Reconciles panel's hint when the controller has been idle, in the kind's own words
/// ("… Try editing a Guestbook, deleting its ConfigMap (Children), …").
QString idleHint(const TourSubject &subject);

struct TourState
{
    int index = -1; ///< the current lesson; -1: not started
    int count = 0;
    bool done = false; ///< the current lesson's action was observed
    bool finished = false;
    TourLesson lesson;
    QStringList completed; ///< ids of the lessons completed so far
};

class Tour : public QObject
{
    Q_OBJECT
public:
    explicit Tour(TourSubject subject, QObject *parent = nullptr);

    /// The lessons for `subject`: MyApplication's eleven (thirteen with its webhooks), or the
    /// generic ones (tourlessons.cpp).
    static QList<TourLesson> lessons(const TourSubject &subject);
    const TourSubject &subject() const { return m_subject; }
    /// Another subject (the definition's kinds became known): its lessons; a running tour
    /// stays at its lesson number (stateChanged() follows).
    void setSubject(TourSubject subject);
    const TourState &state() const { return m_state; }

public Q_SLOTS:
    /// Starts (or resumes at `index`) the tour.
    void start(int index = 0);
    /// The next lesson (allowed before the current one is done: the learner may skip).
    void next();
    void back();
    void stop();

    // The engine's events, as the window receives them.
    void observeCache(const opbench::workbench::CacheBatch &batch);
    void observeTraces(const QList<opbench::ReconcileTrace> &traces);
    void observeControl(const opbench::workbench::ControlState &state);
    void observeQueue(const opbench::workbench::QueueSample &sample);
    void observeLeadership(const opbench::workbench::LeadershipState &state);
    void observeTimeTravel(const opbench::workbench::CachePast &past);
    /// The embedded API server's webhook calls (AdmissionLog): the admission and conversion
    /// lessons count the calls made after they began.
    void observeAdmission(const opbench::workbench::AdmissionSnapshot &snapshot);

Q_SIGNALS:
    void stateChanged(const opbench::workbench::TourState &state);

private:
    void enter(int index);
    void complete();
    /// The admission and conversion lessons' view of one new webhook call.
    void observeWebhookCall(const apiserver::WebhookCallRecord &call);
    const QString &currentId() const { return m_state.lesson.id; }

    TourSubject m_subject;
    TourState m_state;
    QList<TourLesson> m_lessons;
    QList<InformerState> m_informers; // the latest informer states, whatever the lesson
    // What each lesson waits for, observed since it started.
    bool m_paused = false;
    int m_relistsAtStart = -1; // the informers' relists when the lesson began (-1: not seen yet)
    bool m_sawHandedOff = false;
    QString m_conflicted;                           // conflict: the key whose reconcile got a 409 and requeued
    QString m_appName = QStringLiteral("frontend"); // the app the lessons' faults aim at (lesson 2's)
    quint64 m_webhookCallsSeen = 0;                 // the last webhook call observed (its seq), in any lesson
    bool m_sawDenial = false;                       // admission: a validating webhook denied a request
    bool m_sawPatchAdmitted = false;                // … a defaulting patch, then the request admitted
    QSet<QString> m_patched;                        // requests a mutating webhook patched ("CREATE ns/name")
};

} // namespace opbench::workbench

Q_DECLARE_METATYPE(opbench::workbench::TourState)
