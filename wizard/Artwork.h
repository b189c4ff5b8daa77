#pragma once

#include "common/Finding.h"

#include <QColor>
#include <QFont>
#include <QIcon>
#include <QPixmap>

class QWidget;

namespace cudnnsetup::wizard {

enum class Status
{
    Ok,
    Info,
    Warning,
    Error,
};

Status statusFor(Severity severity);
// The colour of a status's icon, for anything else that shows that status (a tile's frame).
QColor statusColour(Status status);
// Drawn, not loaded: crisp at any DPI, and the static Windows build needs no image plugin. Each
// status has its own shape and glyph, so it never depends on colour alone.
QIcon statusIcon(Status status);
// The (i) beside a word that has an explanation (InfoIcon): outlined, so that it is never taken
// for a status.
QIcon explanationIcon();
// Logical pixels of a status icon beside a row (a fact, a finding, a stage), and beside a page's
// summary.
constexpr int kRowIconSize = 20;
constexpr int kSummaryIconSize = 32;

// The product's mark for the wizard's header and window icon: `size` logical pixels, drawn sharp
// for a screen of `devicePixelRatio`.
QPixmap logo(int size, qreal devicePixelRatio);

// WCAG's contrast ratio of two colours, 1 to 21.
double contrastRatio(const QColor &a, const QColor &b);
// Draws `widget`'s text as secondary text: lighter than the text around it, yet at least 4.5:1
// against its background (WCAG AA), which the palette's placeholder colour is not.
void makeSecondaryText(QWidget *widget);
// The font for a line to copy (a command, a line of code): monospace, with the families Windows
// ships first and those Linux (and so Wine) has after them; Qt's own fixed font alone draws nothing
// under Wine, which has no Courier New.
QFont codeFont();
// `path` with a break opportunity after each separator, so a wrapped label breaks a long path
// between folders ("…\NVIDIA\" | "CUDNN\v9.19"), never after the drive's colon.
QString breakablePath(const QString &path);

} // namespace cudnnsetup::wizard
