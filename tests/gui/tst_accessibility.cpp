// Keyboard and screen-reader use of the wizard, at twice the normal scale, on every page the
// Install, Repair and Uninstall paths reach on the sandbox workstation: every widget that takes
// focus has a name and is reached by Tab from the page's first one; no label's text is cut off;
// the Welcome page is left with the keyboard alone (a task's mnemonic, the arrow keys, Alt+N,
// Enter). A screenshot of each page at scale 2 (screenshots/hidpi-PAGE-LANGUAGE.png).
#include "BuildPaths.h"
#include "FinishPage.h"
#include "RepairPage.h"
#include "Suite.h"
#include "UninstallPage.h"
#include "VerifyPage.h"
#include "WizardFlow.h"

#include <QAbstractButton>
#include <QApplication>
#include <QFile>
#include <QGroupBox>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QTest>
#include <QTextDocumentFragment>

using namespace cudnnsetup;
using namespace cudnnsetup::wizard;
using wizardpagetests::Flow;
using wizardpagetests::installThroughWizard;
using wizardpagetests::kWorkTimeoutMs;
using wizardpagetests::saveScreenshot;
using wizardpagetests::settle;
using wizardpagetests::Workstation;

namespace {

QString pageName(int id)
{
    static const QHash<int, QString> names = {
        {SetupWizard::Page_Welcome, QStringLiteral("welcome")},
        {SetupWizard::Page_Hardware, QStringLiteral("hardware")},
        {SetupWizard::Page_Match, QStringLiteral("match")},
        {SetupWizard::Page_Archive, QStringLiteral("archive")},
        {SetupWizard::Page_Target, QStringLiteral("target")},
        {SetupWizard::Page_Install, QStringLiteral("install")},
        {SetupWizard::Page_Verify, QStringLiteral("verify")},
        {SetupWizard::Page_Repair, QStringLiteral("repair")},
        {SetupWizard::Page_Uninstall, QStringLiteral("uninstall")},
        {SetupWizard::Page_Finish, QStringLiteral("finish")},
    };
    return names.value(id, QString::number(id));
}

QString describe(const QWidget *widget)
{
    return QStringLiteral("%1 \"%2\"")
        .arg(QString::fromLatin1(widget->metaObject()->className()), widget->objectName());
}

// What a screen reader says for `widget`: its accessible name, the text of a label that is its
// buddy, or its own words.
QString nameOf(const QWidget *widget)
{
    const auto spoken = [](QString text) { return text.remove(QLatin1Char('&')).trimmed(); };
    if (!widget->accessibleName().trimmed().isEmpty())
        return widget->accessibleName();
    for (const QLabel *label : widget->window()->findChildren<QLabel *>()) {
        if (label->buddy() == widget && !spoken(label->text()).isEmpty())
            return spoken(label->text());
    }
    if (auto button = qobject_cast<const QAbstractButton *>(widget))
        return spoken(button->text());
    if (auto label = qobject_cast<const QLabel *>(widget))
        return spoken(label->text());
    if (auto group = qobject_cast<const QGroupBox *>(widget))
        return spoken(group->title());
    return {};
}

bool takesTabFocus(const QWidget *widget)
{
    return widget->isVisible() && widget->isEnabled() && (widget->focusPolicy() & Qt::TabFocus) &&
           !widget->focusProxy();
}

// Each step of a page is looked at once the wizard shows it; what is wrong is collected, so that a
// run names every problem at once.
// translations/GLOSSARY.md's "Rejected variants": each rejected text and the longer strings it may
// stand in (the table scripts/i18n/check_glossary.py holds the catalogue to).
struct Rejected
{
    QString text;
    QStringList allowedIn;
};

QList<Rejected> rejectedVariants()
{
    QFile file(BuildPaths::sourceDir() + QStringLiteral("/translations/GLOSSARY.md"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("translations/GLOSSARY.md cannot be read");
    const QString glossary = QString::fromUtf8(file.readAll());
    const qsizetype table = glossary.indexOf(QStringLiteral("## Rejected variants"));
    QList<Rejected> rejected;
    const auto cell = [](QString text) { return text.remove(QLatin1Char('`')).trimmed(); };
    for (const QString &line : glossary.mid(table).split(QLatin1Char('\n'))) {
        const QStringList cells = line.split(QLatin1Char('|'));
        if (cells.size() < 5 || cell(cells.at(1)).isEmpty() ||
            cell(cells.at(1)) == QLatin1String("rejected") ||
            cells.at(1).trimmed().startsWith(QLatin1String("---")))
            continue;
        Rejected row{cell(cells.at(1)), {}};
        for (const QString &allowed : cells.at(3).split(QStringLiteral(" / "), Qt::SkipEmptyParts))
            if (!cell(allowed).isEmpty())
                row.allowedIn.append(cell(allowed));
        rejected.append(row);
    }
    if (rejected.size() < 10)
        qFatal("the glossary's table of rejected variants was not found");
    return rejected;
}

// The text a widget shows, as drawn (rich text without its markup).
QString shownText(const QWidget *widget)
{
    QString text;
    if (const auto label = qobject_cast<const QLabel *>(widget))
        text = label->textFormat() == Qt::RichText || Qt::mightBeRichText(label->text())
                   ? QTextDocumentFragment::fromHtml(label->text()).toPlainText()
                   : label->text();
    else if (const auto button = qobject_cast<const QAbstractButton *>(widget))
        text = button->text();
    else if (const auto group = qobject_cast<const QGroupBox *>(widget))
        text = group->title();
    return text.remove(QChar(0x200B));
}

struct Audit
{
    explicit Audit(const QString &language)
        : language(language)
    {
    }

    QString language;
    QStringList problems;
    QHash<QString, int> shots;
    int pages = 0;
    int widgets = 0;
    int labels = 0;

    void look(Flow &flow)
    {
        settle();
        QWizard *wizard = flow.wizard.get();
        QWidget *page = wizard->currentPage();
        QString name = pageName(wizard->currentId());
        if (const int seen = shots[name]++; seen > 0)
            name += QStringLiteral("-%1").arg(seen + 1);
        ++pages;
        saveScreenshot(wizard, QStringLiteral("hidpi-%1-%2.png").arg(name, language));
        checkNames(wizard, name);
        checkTabOrder(wizard, page, name);
        checkLabels(wizard, name);
        if (language == QLatin1String("zh_CN"))
            checkGlossary(wizard, name);
    }

    // What the pages show in Chinese keeps to the glossary, core's messages included.
    void checkGlossary(QWidget *window, const QString &page)
    {
        static const QList<Rejected> rejected = rejectedVariants();
        QStringList texts{window->windowTitle()};
        for (const QWidget *widget : window->findChildren<QWidget *>()) {
            if (widget->isVisible())
                texts.append(shownText(widget));
        }
        for (QString text : std::as_const(texts)) {
            for (const Rejected &variant : rejected) {
                QString checked = text;
                for (const QString &allowed : variant.allowedIn) {
                    // A placeholder stands for what it is filled with: r"%1" allows r"C:\…\bin".
                    QString pattern = QRegularExpression::escape(allowed);
                    pattern.replace(QRegularExpression(QStringLiteral("\\\\?%\\d")),
                                    QStringLiteral("[^\"“”]*"));
                    checked.remove(QRegularExpression(pattern));
                }
                if (checked.contains(variant.text))
                    problems << QStringLiteral("%1: \"%2\" in \"%3\"").arg(page, variant.text, text);
            }
        }
    }

    void checkNames(QWidget *window, const QString &page)
    {
        for (const QWidget *widget : window->findChildren<QWidget *>()) {
            if (!takesTabFocus(widget))
                continue;
            ++widgets;
            if (nameOf(widget).isEmpty())
                problems << QStringLiteral("%1: %2 has no accessible name").arg(page, describe(widget));
        }
    }

    // Tab from the page's first focus widget round the whole window, as the user presses it.
    void checkTabOrder(QWidget *window, QWidget *page, const QString &pageName)
    {
        QWidget *first = page->nextInFocusChain();
        while (first != page && !(takesTabFocus(first) && page->isAncestorOf(first)))
            first = first->nextInFocusChain();
        // A page with nothing left to do (an uninstall done) leaves focus to the wizard's buttons.
        if (first == page)
            first = window->nextInFocusChain();
        while (first != window && !takesTabFocus(first))
            first = first->nextInFocusChain();
        first->setFocus(Qt::TabFocusReason);
        // A label's links take Tab in turn before focus moves on.
        constexpr int kMostStopsInOneWidget = 20;
        QList<QWidget *> reached;
        int stops = 0;
        for (QWidget *focus = QApplication::focusWidget(); focus; focus = QApplication::focusWidget()) {
            if (!reached.isEmpty() && focus == reached.constLast()) {
                if (++stops > kMostStopsInOneWidget) {
                    problems << QStringLiteral("%1: Tab stays in %2").arg(pageName, describe(focus));
                    break;
                }
            } else if (reached.contains(focus)) {
                break;
            } else {
                reached.append(focus);
                stops = 0;
            }
            QTest::keyClick(focus, Qt::Key_Tab);
        }
        if (reached.isEmpty() || reached.constFirst() != first) {
            problems << QStringLiteral("%1: %2 does not take focus").arg(pageName, describe(first));
            return;
        }
        for (QWidget *widget : window->findChildren<QWidget *>()) {
            if (takesTabFocus(widget) && !reached.contains(widget))
                problems << QStringLiteral("%1: Tab does not reach %2").arg(pageName, describe(widget));
        }
    }

    // A label shows all its text: wrapped, it is as tall as its width needs; on one line, as wide.
    void checkLabels(QWidget *window, const QString &page)
    {
        for (const QLabel *label : window->findChildren<QLabel *>()) {
            if (!label->isVisible() || label->text().isEmpty())
                continue;
            ++labels;
            if (label->wordWrap()) {
                const int needed = label->heightForWidth(label->width());
                if (needed > label->height())
                    problems << QStringLiteral("%1: %2 needs %3 px of height, has %4")
                                    .arg(page, describe(label))
                                    .arg(needed)
                                    .arg(label->height());
            } else if (label->sizeHint().width() > label->width()) {
                problems << QStringLiteral("%1: %2 needs %3 px of width, has %4")
                                .arg(page, describe(label))
                                .arg(label->sizeHint().width())
                                .arg(label->width());
            }
        }
    }

    void report() const
    {
        qInfo("%s: %d pages, %d focus widgets, %d labels looked at; %lld problems", qPrintable(language),
              pages, widgets, labels, qlonglong(problems.size()));
    }
};

void activate(Flow &flow)
{
    QApplication::setActiveWindow(flow.wizard.get());
    QVERIFY(QTest::qWaitForWindowActive(flow.wizard.get()));
}

void addLanguages()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

public:
    // High DPI: every page is drawn, measured and shot at twice the normal scale. QTEST_MAIN calls
    // this before the application exists, which reads the variable once.
    static void initMain() { qputenv("QT_SCALE_FACTOR", "2"); }

private Q_SLOTS:
    void initTestCase() { QCOMPARE(qApp->devicePixelRatio(), 2.0); }
    void cleanup() { Translations::install(QStringLiteral("en")); }

    void installPath_data() { addLanguages(); }
    void installPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        activate(flow);
        Audit audit(language);
        QVERIFY(installThroughWizard(flow, [&] { audit.look(flow); }));
        QVERIFY(flow.next());
        auto verify = flow.page<VerifyPage>();
        QVERIFY(verify);
        QTRY_VERIFY_WITH_TIMEOUT(!verify->isVerifying(), kWorkTimeoutMs);
        audit.look(flow);
        QVERIFY(flow.next());
        if (auto repair = flow.page<RepairPage>()) {
            QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
            audit.look(flow);
            QVERIFY(flow.next());
        }
        QVERIFY(flow.page<FinishPage>());
        audit.look(flow);
        audit.report();
        QVERIFY2(audit.problems.isEmpty(), qPrintable(audit.problems.join(QLatin1Char('\n'))));
    }

    void repairPath_data() { addLanguages(); }
    void repairPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        Flow flow(machine, language);
        activate(flow);
        Audit audit(language + QStringLiteral("-repair"));
        flow.chooseTask(QStringLiteral("repairTaskRadio"));
        QVERIFY(flow.next());
        audit.look(flow);
        QVERIFY(flow.next());
        auto repair = flow.page<RepairPage>();
        QVERIFY(repair);
        QTRY_VERIFY_WITH_TIMEOUT(!repair->isBusy(), kWorkTimeoutMs);
        audit.look(flow);
        QVERIFY(flow.next());
        audit.look(flow);
        audit.report();
        QVERIFY2(audit.problems.isEmpty(), qPrintable(audit.problems.join(QLatin1Char('\n'))));
    }

    void uninstallPath_data() { addLanguages(); }
    void uninstallPath()
    {
        QFETCH(QString, language);
        Workstation machine;
        {
            Flow installing(machine, language);
            QVERIFY(installThroughWizard(installing));
        }
        Flow flow(machine, language);
        activate(flow);
        Audit audit(language + QStringLiteral("-uninstall"));
        flow.chooseTask(QStringLiteral("uninstallTaskRadio"));
        audit.look(flow);
        QVERIFY(flow.next());
        auto page = flow.page<UninstallPage>();
        QVERIFY(page);
        audit.look(flow);
        flow.wizard->button(QWizard::CommitButton)->click();
        // Done, it goes on to the summary by itself.
        QTRY_COMPARE_WITH_TIMEOUT(flow.wizard->currentId(), int(SetupWizard::Page_Finish), kWorkTimeoutMs);
        QVERIFY(page->isComplete());
        audit.look(flow);
        audit.report();
        QVERIFY2(audit.problems.isEmpty(), qPrintable(audit.problems.join(QLatin1Char('\n'))));
    }

    // The task by its mnemonic and the arrow keys, Next by Alt+N and by Enter; no mouse.
    void welcomeByKeyboard()
    {
        Workstation machine;
        Flow flow(machine, QStringLiteral("en"));
        activate(flow);
        QWizard *wizard = flow.wizard.get();
        auto install = flow.find<QRadioButton>(QStringLiteral("installTaskRadio"));
        auto repair = flow.find<QRadioButton>(QStringLiteral("repairTaskRadio"));
        QVERIFY(install->isChecked());
        QTest::keyClick(wizard, Qt::Key_R, Qt::AltModifier);
        QTRY_VERIFY(repair->isChecked());
        QCOMPARE(QApplication::focusWidget(), repair);
        QTest::keyClick(repair, Qt::Key_Up);
        QTRY_VERIFY(install->isChecked());
        QCOMPARE(QApplication::focusWidget(), install);

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_N, Qt::AltModifier);
        QTRY_COMPARE(wizard->currentId(), int(SetupWizard::Page_Hardware));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_B, Qt::AltModifier);
        QTRY_COMPARE(wizard->currentId(), int(SetupWizard::Page_Welcome));
        QVERIFY(install->isChecked());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_I, Qt::AltModifier);
        QTRY_COMPARE(QApplication::focusWidget(), install);
        QTest::keyClick(install, Qt::Key_Return);
        QTRY_COMPARE(wizard->currentId(), int(SetupWizard::Page_Hardware));
        QCOMPARE(flow.wizard->task(), SetupTask::Install);
    }
};

CUDNNSETUP_TEST_MAIN(TestAccessibility)
#include "tst_accessibility.moc"
