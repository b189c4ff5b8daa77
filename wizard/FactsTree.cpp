#include "FactsTree.h"

#include "Artwork.h"

#include <QHeaderView>
#include <QStyledItemDelegate>
#include <QTreeWidget>

namespace cudnnsetup::wizard {

namespace {

// Nothing is selected in these lists, so a box around the current cell points at nothing a user
// can act on; the list itself still takes Tab focus, so a screen reader reaches its rows.
class NoFocusBoxDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        option->state &= ~QStyle::State_HasFocus;
    }
};

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
    tree->setItemDelegate(new NoFocusBoxDelegate(tree));
    tree->setIconSize(QSize(kRowIconSize, kRowIconSize));
    tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    tree->setWordWrap(true);
    return tree;
}

} // namespace cudnnsetup::wizard
