#include "FactsTree.h"

#include <QHeaderView>
#include <QTreeWidget>

namespace cudnnsetup::wizard {

namespace {
constexpr int kIconSize = 20;
} // namespace

QTreeWidget *newFactsTree(const QString &objectName, QWidget *parent)
{
    auto tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setColumnCount(2);
    tree->setRootIsDecorated(false);
    tree->setItemsExpandable(false);
    tree->setSelectionMode(QAbstractItemView::NoSelection);
    tree->setFocusPolicy(Qt::TabFocus);
    tree->setIconSize(QSize(kIconSize, kIconSize));
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    tree->setWordWrap(true);
    return tree;
}

} // namespace cudnnsetup::wizard
