#include "FactsTree.h"

#include "Artwork.h"

#include <QHeaderView>
#include <QTreeWidget>

namespace cudnnsetup::wizard {

QTreeWidget *newFactsTree(const QString &objectName, QWidget *parent)
{
    auto tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setColumnCount(2);
    tree->setRootIsDecorated(false);
    tree->setItemsExpandable(false);
    tree->setSelectionMode(QAbstractItemView::NoSelection);
    tree->setFocusPolicy(Qt::TabFocus);
    tree->setIconSize(QSize(kRowIconSize, kRowIconSize));
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    tree->setWordWrap(true);
    return tree;
}

} // namespace cudnnsetup::wizard
