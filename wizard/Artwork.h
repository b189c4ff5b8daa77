#pragma once

#include "common/Finding.h"

#include <QIcon>
#include <QPixmap>

namespace cudnnsetup::wizard {

enum class Status
{
    Ok,
    Info,
    Warning,
    Error,
};

Status statusFor(Severity severity);
// Drawn, not loaded: crisp at any DPI, and the static Windows build needs no image plugin. Each
// status has its own shape and glyph, so it never depends on colour alone.
QIcon statusIcon(Status status);
// Logical pixels of a status icon beside a row (a fact, a finding, a stage), and beside a page's
// summary.
constexpr int kRowIconSize = 20;
constexpr int kSummaryIconSize = 32;

// The product's mark for the wizard's header and window icon: `size` logical pixels, drawn sharp
// for a screen of `devicePixelRatio`.
QPixmap logo(int size, qreal devicePixelRatio);

} // namespace cudnnsetup::wizard
