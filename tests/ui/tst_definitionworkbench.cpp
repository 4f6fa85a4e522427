// SPDX-License-Identifier: Apache-2.0
// A user's workbench, offscreen: the window hosts a small Widget operator (not MyApplication,
// tests/workbench/widgetoperator.h) on the embedded cluster and treats its kind as it treats
// MyApplication — the Children panel's create form is built from the Widget CRD and creates a
// Widget the operator reconciles; the badges show the Widget's Ready condition (it has no
// phase); both of its controllers are offered; the tour offers the generic lessons and counts
// them; the idle hint speaks of Widgets.
#include "ui/mainwindow.h"
#include "ui/models/childrentreemodel.h"
#include "ui/models/objectbadge.h"
#include "ui/session/hostedoperator.h"
#include "ui/widgets/createformwidget.h"
#include "ui/widgets/palette.h"
#include "ui/widgets/reconcilespanel.h"

#include "engine/workbench/tour.h"
#include "tests/workbench/widgetoperator.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTest>

using namespace opbench;
using namespace opbench::ui;

class tst_DefinitionWorkbench : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("opbench-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_definitionworkbench"));
        QSettings().clear();
        OperatorDefinition def = testing::widget::definition();
        def.kinds.clear(); // as SDK 0.3 definitions do: the workbench learns them from the controllers
        setHostedOperator(def);
        m_window = std::make_unique<MainWindow>(SessionOptions{});
        connect(m_window->session()->engine(), &WorkbenchEngine::controllersChanged, this,
            [this](const QStringList &, const QString &current) { m_current = current; });
        m_window->show();
        m_children = m_window->findChild<ChildrenTreeModel *>();
        m_form = m_window->findChild<CreateFormWidget *>();
        QVERIFY(m_children && m_form);
        QCOMPARE(m_children->rootKind(), QStringLiteral("Widget"));
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(QStringLiteral("default/sample")).isValid(), 30000);
    }

    void cleanupTestCase() { m_window.reset(); }

    void shouldCreateAWidgetFromTheFormItsCrdDescribes()
    {
        // The form has the Widget's fields with the CRD's bounds, not MyApplication's
        QVERIFY(!m_form->editor(QStringLiteral("image")));
        auto *size = qobject_cast<QSpinBox *>(m_form->editor(QStringLiteral("size")));
        auto *colour = qobject_cast<QComboBox *>(m_form->editor(QStringLiteral("colour")));
        auto *shiny = qobject_cast<QCheckBox *>(m_form->editor(QStringLiteral("shiny")));
        auto *tags = qobject_cast<QLineEdit *>(m_form->editor(QStringLiteral("tags")));
        QVERIFY(size && colour && shiny && tags);
        QCOMPARE(size->minimum(), 1);
        QCOMPARE(size->maximum(), 10);
        QCOMPARE(size->value(), 2); // the definition's sample
        QVERIFY(size->toolTip().contains(QStringLiteral("required")));
        QCOMPARE(colour->count(), 4); // unset, red, green, blue
        QVERIFY(shiny->isChecked());  // the schema's default
        QVERIFY(!m_form->showsYaml());
        // When the learner fills it in and presses Create
        m_form->nameEdit()->setText(QStringLiteral("from-form"));
        size->setValue(3);
        colour->setCurrentText(QStringLiteral("green"));
        tags->setText(QStringLiteral("a, b"));
        m_form->createButton()->click();
        // Then the Widget is created, reconciled, and shows its Ready condition as its badge
        QTRY_VERIFY_WITH_TIMEOUT(badgeOf(QStringLiteral("default/from-form")) == u"Ready", 30000);
        const QModelIndex row = rowOf(QStringLiteral("default/from-form"));
        QCOMPARE(row.siblingAtColumn(ChildrenTreeModel::StatusColumn).data(BadgeColourRole).value<QColor>(),
            phaseColour(QStringLiteral("Running")));
        QVERIFY(row.siblingAtColumn(ChildrenTreeModel::StatusColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Ready=True")));
        QVERIFY(m_children->rowCount(row) >= 1); // its ConfigMap under it
    }

    void shouldCreateAWidgetFromTheYamlEditor()
    {
        m_form->setShowsYaml(true);
        QVERIFY(m_form->yamlEdit()->toPlainText().contains(QStringLiteral("name: sample"))); // the definition's sample
        QString yaml = m_form->yamlEdit()->toPlainText();
        yaml.replace(QStringLiteral("name: sample"), QStringLiteral("name: from-yaml"));
        m_form->yamlEdit()->setPlainText(yaml);
        m_form->createButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(badgeOf(QStringLiteral("default/from-yaml")) == u"Ready", 30000);
        m_form->setShowsYaml(false);
    }

    void shouldBadgeAConditionWithoutAPhase()
    {
        Object o = testing::widget::widget(QStringLiteral("x"), 1);
        QVERIFY(objectBadge(QStringLiteral("Widget"), o).isEmpty());
        QJsonObject json = o.json();
        json.insert(QStringLiteral("status"),
            QJsonObject{{QStringLiteral("conditions"),
                QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("Available")},
                               {QStringLiteral("status"), QStringLiteral("True")}},
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("Ready")},
                        {QStringLiteral("status"), QStringLiteral("False")},
                        {QStringLiteral("reason"), QStringLiteral("Waiting")}}}}});
        const ObjectBadge notReady = objectBadge(QStringLiteral("Widget"), Object::fromJson(json));
        QCOMPARE(notReady.text, QStringLiteral("Waiting")); // Ready wins over Available
        QCOMPARE(notReady.colour, phaseColour(QStringLiteral("Failed")));
        json.insert(QStringLiteral("status"),
            QJsonObject{{QStringLiteral("conditions"),
                QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("Available")},
                    {QStringLiteral("status"), QStringLiteral("True")}}}}});
        QCOMPARE(objectBadge(QStringLiteral("Widget"), Object::fromJson(json)).text, QStringLiteral("Available"));
    }

    void shouldOfferEveryControllerOfTheDefinition()
    {
        auto *picker = m_window->findChild<QComboBox *>(QStringLiteral("controllerPicker"));
        QVERIFY(picker);
        QTRY_COMPARE_WITH_TIMEOUT(picker->count(), 2, 10000);
        QCOMPARE(picker->itemText(0), QStringLiteral("widget"));
        QCOMPARE(picker->itemText(1), QStringLiteral("widget-auditor"));
        QVERIFY(picker->isEnabled());
        picker->setCurrentIndex(1);
        QTRY_COMPARE_WITH_TIMEOUT(m_current, QStringLiteral("widget-auditor"), 10000);
        picker->setCurrentIndex(0);
        QTRY_COMPARE_WITH_TIMEOUT(m_current, QStringLiteral("widget"), 10000);
    }

    void shouldOfferTheGenericTourInTheKindsWords()
    {
        workbench::Tour *tour = m_window->tour();
        QVERIFY(!tour->subject().sampleOperator);
        QCOMPARE(tour->subject().childKind, QStringLiteral("ConfigMap"));
        const int count = int(workbench::Tour::lessons(tour->subject()).size());
        QCOMPARE(tour->state().count, count);
        auto *progress = m_window->findChild<QLabel *>(QStringLiteral("tourProgress"));
        QVERIFY(progress);
        QCOMPARE(progress->text(), QStringLiteral("%1 short lessons, about a minute each").arg(count));
        m_window->startTour();
        QCOMPARE(progress->text(), QStringLiteral("Lesson 1 of %1").arg(count));
        // The cache synced long ago: the first lesson is done without waiting for a new batch
        QTRY_VERIFY_WITH_TIMEOUT(tour->state().done, 10000);
        QCOMPARE(tour->state().lesson.id, QStringLiteral("sync"));
        tour->next();
        QVERIFY(tour->state().lesson.task.contains(QStringLiteral("Create a Widget")));
        tour->stop();
    }

    void shouldHintInTheKindsOwnWords()
    {
        const QString hint = m_window->reconcilesPanel()->idleHint()->text();
        QVERIFY2(hint.contains(QStringLiteral("Try editing a Widget, deleting its ConfigMap")), qPrintable(hint));
        QCOMPARE(hostedOperator().kinds.value(1).kind, QStringLiteral("ConfigMap")); // from its controllers
        QVERIFY(!hint.contains(QStringLiteral("an app")));
    }

private:
    QModelIndex rowOf(const QString &key) const
    {
        for (int r = 0; r < m_children->rowCount(); ++r) {
            const QModelIndex i = m_children->index(r, 0);
            if (i.data(ChildrenTreeModel::KeyRole).toString() == key)
                return i;
        }
        return {};
    }

    QString badgeOf(const QString &key) const
    {
        const QModelIndex row = rowOf(key);
        return row.isValid() ? row.siblingAtColumn(ChildrenTreeModel::StatusColumn).data(BadgeTextRole).toString()
                             : QString();
    }

    std::unique_ptr<MainWindow> m_window;
    ChildrenTreeModel *m_children = nullptr;
    CreateFormWidget *m_form = nullptr;
    QString m_current;
};

QTEST_MAIN(tst_DefinitionWorkbench)
#include "tst_definitionworkbench.moc"
