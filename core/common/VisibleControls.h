#pragma once

#include <QString>
#include <QStringView>

namespace cudnnsetup {

// Characters a terminal acts on instead of showing: the C0 controls, DEL, the C1 controls, and the
// format controls that reorder or hide what follows (U+061C, U+200B–U+200F, U+202A–U+202E,
// U+2060–U+2069, U+FEFF). Returns `text` with each of them written as \uXXXX, as JSON writes them,
// so that a name taken from an archive can neither move the cursor, clear a line, return to its
// start nor reverse the text after it: it cannot draw over a verdict. `keep` lists those left as
// they are (a whole report keeps its line breaks).
QString withVisibleControls(const QString &text, QStringView keep = {});

} // namespace cudnnsetup
