#pragma once

#include "Artwork.h"

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace cudnnsetup::wizard {

// A page's headline: a sentence in bold beside the icon of its status, drawn alike on every page.
// Made with the name NAME, its sentence is the label NAMELabel and its icon NAMEIcon (the names
// the tests find them by).
class SummaryBanner final : public QWidget
{
    Q_OBJECT

public:
    // Where a headline without a status leaves the icon's place.
    enum class WithoutStatus
    {
        KeepIconRoom, // empty: the sentence stays put when the verdict comes
        UseIconRoom,  // taken by the sentence
    };

    SummaryBanner(const QString &name, WithoutStatus withoutStatus, QWidget *parent);

    // The headline and the icon of its status; a screen reader reads the headline for both.
    void setSummary(Status status, const QString &text);
    // A headline with no status yet: work under way, or what to do first.
    void setPending(const QString &text);
    // A line under the headline, beside the icon too (a hint).
    void addBelow(QWidget *widget);
    // The headline's label, for a page that lets it be selected or draws it otherwise.
    QLabel *label() const { return m_text; }

private:
    WithoutStatus m_withoutStatus;
    QLabel *m_icon = nullptr;
    QLabel *m_text = nullptr;
    QVBoxLayout *m_column = nullptr;
};

} // namespace cudnnsetup::wizard
