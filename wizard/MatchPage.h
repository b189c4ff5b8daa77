#pragma once

#include "compat/CudaNumbers.h"

#include <QWizardPage>

class QCheckBox;
class QFrame;
class QGridLayout;
class QLabel;

namespace cudnnsetup {
class SetupSession;
struct MatchResult;
} // namespace cudnnsetup

namespace cudnnsetup::wizard {

class FindingsView;
class SummaryBanner;

// What fits this machine: the four CUDA numbers people confuse side by side, the matcher's
// findings with their fixes, and the exact archive to download. Blocking findings keep the user
// here unless they explicitly choose to go on.
class MatchPage final : public QWizardPage
{
    Q_OBJECT

public:
    explicit MatchPage(SetupSession *session, QWidget *parent = nullptr);

    void initializePage() override;
    bool isComplete() const override;

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct NumberTile
    {
        QFrame *frame = nullptr;
        QLabel *value = nullptr;
        QLabel *caption = nullptr;
        QLabel *verdict = nullptr;
    };

    void showMatch();
    void showTiles(const CudaNumbers &numbers);
    void showTile(const NumberTile &tile, const CudaNumbers::Tile &judged, const QString &tooltip);
    void showRecommendation(const MatchResult &result);
    void showHeadline(const MatchResult &result);
    void showDatabase();
    void fitTiles();
    void retranslate();
    NumberTile addTile(QGridLayout *grid, int column, const QString &name);

    SetupSession *m_session;
    SummaryBanner *m_summary = nullptr;
    NumberTile m_driverCuda;
    NumberTile m_toolkitCuda;
    NumberTile m_frameworkCuda;
    NumberTile m_archiveCuda;
    QLabel *m_recommendationTitle = nullptr;
    QLabel *m_recommendation = nullptr;
    QLabel *m_findingsTitle = nullptr;
    FindingsView *m_findings = nullptr;
    QCheckBox *m_override = nullptr;
    QLabel *m_database = nullptr;
};

} // namespace cudnnsetup::wizard
