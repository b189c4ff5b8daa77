#pragma once

#include <QString>

class QTreeWidget;
class QWidget;

namespace cudnnsetup::wizard {

// The two-column "question / answer" list the pages show what was found in: no tree lines, nothing
// to select, a status icon per row, the answers wrapped in the wide column.
QTreeWidget *newFactsTree(const QString &objectName, QWidget *parent);

} // namespace cudnnsetup::wizard
