// SPDX-License-Identifier: Apache-2.0
#pragma once
// CachePanel: the cache tree with its filter box (label selector or text). Emits
// objectSelected() when the user picks an object row. Time travel: a slider over the informers'
// history; moving it left asks for the whole cache at that resourceVersion (timeTravelRequested)
// and showPast() swaps the tree for that past state under a "viewing the past" banner until the
// user goes back to live.

#include "ui/session/snapshots.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QTimer;
class QTreeView;

namespace opbench::workbench {
struct CachePast;
}

namespace opbench::ui {

class CacheTreeModel;
class CacheFilterProxy;

class CachePanel : public QWidget
{
    Q_OBJECT
public:
    explicit CachePanel(CacheTreeModel *model, QWidget *parent = nullptr);

    QTreeView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    CacheFilterProxy *proxy() const { return m_proxy; }
    /// The selected object (kind, key), or empty strings.
    std::pair<QString, QString> selectedObject() const;
    /// Makes the object `key` of `kind` current (no-op when it is not in the tree).
    void select(const QString &kind, const QString &key);

    QSlider *historySlider() const { return m_slider; }
    /// True while the tree shows a past resourceVersion instead of the live cache.
    bool isViewingPast() const { return m_past != nullptr; }
    /// The tree's model: the live cache, or the past one while viewing the past.
    CacheTreeModel *shownModel() const;
    QLabel *timeTravelBanner() const { return m_banner; }
    /// Shows the cache as it was (the answer to timeTravelRequested()); ignored when the user
    /// went back to live or asked for another resourceVersion meanwhile.
    void showPast(const opbench::workbench::CachePast &past);
    /// Shows the live cache again (the slider goes to its right end).
    void backToLive();
    /// The header's "410 → relist" marker: shown once an informer listed again (InformerState::relists).
    void showRelists(const QList<opbench::workbench::InformerState> &informers);
    QLabel *relistMarker() const { return m_relistMarker; }

Q_SIGNALS:
    void objectSelected(const QString &kind, const QString &key);
    /// The user moved the history slider to resourceVersion `rv`.
    void timeTravelRequested(const QString &rv);

private:
    void onFilterChanged(const QString &text);
    void onCurrentChanged();
    void expandNew(const QModelIndex &parent, int first, int last);
    QWidget *makeTimeTravelBar();
    void onHistoryRange(qint64 oldest, qint64 latest);
    void onSliderMoved();
    void showModel(CacheTreeModel *model);

    CacheTreeModel *m_model;
    CacheFilterProxy *m_proxy;
    QLineEdit *m_filter;
    QLabel *m_filterError;
    QTreeView *m_view;
    QLabel *m_relistMarker;
    QSlider *m_slider = nullptr;
    QLabel *m_sliderLabel = nullptr;
    QLabel *m_banner = nullptr;
    QPushButton *m_liveButton = nullptr;
    QTimer *m_debounce = nullptr;
    CacheTreeModel *m_past = nullptr; ///< the past shown (owned), null when live
    QString m_requestedRv;
    bool m_atLive = true; ///< the slider stays pinned to its right end ("live")
};

} // namespace opbench::ui
