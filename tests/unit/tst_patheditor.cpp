#include "MemoryRegistry.h"
#include "Suite.h"
#include "install/PathEditor.h"
#include "platform/EnvironmentStore.h"
#include "platform/MemoryEnvironment.h"

#include <QTest>

using namespace cudnnsetup;

namespace {

const QString kCuda124 = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4");
const QString kCuda118 = QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8");
const QString kOurs = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin");

QString lookup(const QString &name)
{
    if (name.compare(QLatin1String("CUDA_PATH"), Qt::CaseInsensitive) == 0)
        return kCuda124;
    if (name.compare(QLatin1String("CUDA_PATH_V11_8"), Qt::CaseInsensitive) == 0)
        return kCuda118;
    if (name.compare(QLatin1String("SystemRoot"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("C:\\Windows");
    if (name.compare(QLatin1String("USERPROFILE"), Qt::CaseInsensitive) == 0)
        return QStringLiteral("C:\\Users\\张三");
    if (name == QLatin1String("HOME"))
        return QStringLiteral("/home/zhang");
    return {};
}

PathEditor windowsEditor()
{
    return PathEditor(OsFamily::Windows, lookup);
}

// A real-looking Windows PATH of more than 5,000 characters: %VARS%, empty entries, quoted
// entries (one holding ';'), forward slashes, trailing '\', Chinese names, a trailing ';'.
QString bigWindowsPath()
{
    QStringList pieces = {
        QStringLiteral("%SystemRoot%\\system32"),
        QStringLiteral("%SystemRoot%"),
        QStringLiteral("%SystemRoot%\\System32\\Wbem"),
        QStringLiteral("%SYSTEMROOT%\\System32\\WindowsPowerShell\\v1.0\\"),
        QString(),
        QStringLiteral("\"C:\\Program Files\\Tool; with semicolon\\bin\""),
        QStringLiteral("%USERPROFILE%\\AppData\\Local\\Microsoft\\WindowsApps"),
        QStringLiteral("  C:/Users/张三/工具/bin/  "),
        QStringLiteral("%CUDA_PATH%\\bin"),
        QStringLiteral("%CUDA_PATH%\\libnvvp"),
        QStringLiteral("\"C:\\Program Files\\Quoted\\bin\""),
        QStringLiteral("%NOT_DEFINED%\\bin"),
        QString(),
        QString(),
    };
    int i = 0;
    while (pieces.join(QLatin1Char(';')).size() < 5000) {
        pieces.append(QStringLiteral("C:\\Program Files\\Vendor %1\\Product With A Long Name\\bin").arg(i));
        if (i % 7 == 0)
            pieces.append(QString());
        if (i % 5 == 0)
            pieces.append(QStringLiteral("%%1_HOME%\\bin").arg(QStringLiteral("TOOL%1").arg(i)));
        ++i;
    }
    pieces.append(QString()); // the trailing ';'
    return pieces.join(QLatin1Char(';'));
}

QStringList kinds(const PathAnalysis &analysis)
{
    QStringList result;
    for (const PathProblem &problem : analysis.problems)
        result.append(QStringLiteral("%1:%2:%3")
                          .arg(problem.finding.id)
                          .arg(problem.index)
                          .arg(problem.beforeOurs ? QStringLiteral("before") : QStringLiteral("after")));
    return result;
}

} // namespace

class TestPathEditor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The Target page's preview, the install and the doctor expand %VARS% one way, as Windows builds
    // a new program's environment: the scope's own stored values (the user's first, then the
    // machine's), a machine value never sees a user variable, and the session's own (SystemRoot)
    // come from the session.
    void storedPathExpandsAsWindowsDoes()
    {
        MemoryEnvironment stored;
        stored.set(EnvironmentScope::System, QStringLiteral("TOOLS"),
                   {QStringLiteral("C:\\MachineTools"), false});
        stored.set(EnvironmentScope::User, QStringLiteral("TOOLS"), {QStringLiteral("C:\\MyTools"), false});
        stored.set(EnvironmentScope::User, QStringLiteral("MINE"), {QStringLiteral("C:\\Mine"), false});
        const auto session = [](const QString &name) {
            return name == QLatin1String("SystemRoot") ? QStringLiteral("C:\\Windows") : QString();
        };
        const PathEditor user =
            PathEditor::forStoredPath(OsFamily::Windows, EnvironmentScope::User, stored, session);
        const PathEditor machine =
            PathEditor::forStoredPath(OsFamily::Windows, EnvironmentScope::System, stored, session);
        QCOMPARE(user.expanded(QStringLiteral("%TOOLS%\\bin")), QStringLiteral("C:\\MyTools\\bin"));
        QCOMPARE(machine.expanded(QStringLiteral("%TOOLS%\\bin")), QStringLiteral("C:\\MachineTools\\bin"));
        QCOMPARE(user.expanded(QStringLiteral("%MINE%\\bin")), QStringLiteral("C:\\Mine\\bin"));
        QCOMPARE(machine.expanded(QStringLiteral("%MINE%\\bin")), QStringLiteral("%MINE%\\bin"));
        QCOMPARE(machine.expanded(QStringLiteral("%SystemRoot%\\system32")),
                 QStringLiteral("C:\\Windows\\system32"));
        QVERIFY(machine.sameEntry(QStringLiteral("%SystemRoot%\\System32"),
                                  QStringLiteral("C:\\Windows\\system32")));
    }

    // Detection's fresh PATH (EnvironmentStore, over the registry) and the stored PATH's editor
    // (over the values an install writes) expand by the same rule, storedVariable: the same values
    // give the same folders in both scopes.
    void freshPathAndStoredPathExpandAlike()
    {
        const QList<std::tuple<EnvironmentScope, QString, QString>> values{
            {EnvironmentScope::System, QStringLiteral("TOOLS"), QStringLiteral("C:\\MachineTools")},
            {EnvironmentScope::User, QStringLiteral("TOOLS"), QStringLiteral("C:\\MyTools")},
            {EnvironmentScope::User, QStringLiteral("MINE"), QStringLiteral("C:\\Mine")},
            {EnvironmentScope::System, QStringLiteral("Path"),
             QStringLiteral("%SystemRoot%\\system32;%TOOLS%\\bin;%MINE%\\bin")},
            {EnvironmentScope::User, QStringLiteral("Path"), QStringLiteral("%TOOLS%\\bin;%MINE%\\bin")}};
        MemoryEnvironment stored;
        auto registry = std::make_shared<MemoryRegistry>();
        for (const auto &[scope, name, text] : values) {
            const bool path = name == QLatin1String("Path");
            stored.set(scope, name, {text, path});
            registry->setString(scope == EnvironmentScope::User ? RegistryHive::CurrentUser
                                                                : RegistryHive::LocalMachine,
                                EnvironmentStore::registryKey(scope), name, text,
                                path ? RegistryValue::ExpandString : RegistryValue::String);
        }
        QProcessEnvironment process;
        process.insert(QStringLiteral("SystemRoot"), QStringLiteral("C:\\Windows"));
        const EnvironmentStore store(OsFamily::Windows, process, registry);
        const auto session = [&store](const QString &name) { return store.value(name); };
        QStringList edited;
        for (const EnvironmentScope scope : {EnvironmentScope::System, EnvironmentScope::User}) {
            const PathEditor editor = PathEditor::forStoredPath(OsFamily::Windows, scope, stored, session);
            const QString raw = stored.value(scope, QStringLiteral("Path"))->text;
            for (const QString &entry : editor.split(raw))
                edited.append(editor.expanded(entry));
        }
        QCOMPARE(store.freshPath().value(), edited);
        QCOMPARE(edited, (QStringList{QStringLiteral("C:\\Windows\\system32"),
                                      QStringLiteral("C:\\MachineTools\\bin"), QStringLiteral("%MINE%\\bin"),
                                      QStringLiteral("C:\\MyTools\\bin"), QStringLiteral("C:\\Mine\\bin")}));
    }

    void roundTrip_data()
    {
        QTest::addColumn<int>("family");
        QTest::addColumn<QString>("raw");
        QTest::addColumn<int>("count");
        const int windows = int(OsFamily::Windows);
        const int linux = int(OsFamily::Linux);
        QTest::newRow("empty") << windows << QString() << 0;
        QTest::newRow("one") << windows << QStringLiteral("C:\\a") << 1;
        QTest::newRow("separator only") << windows << QStringLiteral(";") << 2;
        QTest::newRow("separators only") << windows << QStringLiteral(";;;") << 4;
        QTest::newRow("trailing") << windows << QStringLiteral("C:\\a;C:\\b;") << 3;
        QTest::newRow("leading") << windows << QStringLiteral(";C:\\a") << 2;
        QTest::newRow("empty inside") << windows << QStringLiteral("C:\\a;;C:\\b") << 3;
        QTest::newRow("spaces kept") << windows << QStringLiteral(" C:\\a ; C:\\b ") << 2;
        QTest::newRow("quoted ;") << windows << QStringLiteral("\"C:\\a;b\";C:\\c") << 2;
        QTest::newRow("quote inside") << windows << QStringLiteral("C:\\\"x;y\"\\bin;C:\\c") << 2;
        QTest::newRow("unclosed quote") << windows << QStringLiteral("C:\\a;\"C:\\b;C:\\c") << 2;
        QTest::newRow("vars") << windows << QStringLiteral("%SystemRoot%\\system32;%CUDA_PATH%\\bin;%%;%")
                              << 4;
        QTest::newRow("5000 characters") << windows << bigWindowsPath() << -1;
        QTest::newRow("linux") << linux << QStringLiteral("/usr/bin:/bin") << 2;
        QTest::newRow("linux empty entries") << linux << QStringLiteral(":/usr/bin::/bin:") << 5;
        QTest::newRow("linux quotes are plain") << linux << QStringLiteral("\"/a:b\":/c") << 3;
    }
    void roundTrip()
    {
        QFETCH(int, family);
        QFETCH(QString, raw);
        QFETCH(int, count);
        const PathEditor editor(OsFamily(family), lookup);
        const QStringList pieces = editor.split(raw);
        QCOMPARE(editor.join(pieces), raw);
        if (count >= 0)
            QCOMPARE(pieces.size(), count);
        // Removing something that is not there returns the very same text.
        QCOMPARE(editor.withoutEntry(raw, QStringLiteral("C:\\Not\\There")), raw);
    }

    void bigPathKeepsEveryOtherCharacter()
    {
        const PathEditor editor = windowsEditor();
        const QString raw = bigWindowsPath();
        QVERIFY(raw.size() > 5000);
        QVERIFY(raw.endsWith(QLatin1Char(';')));
        QVERIFY(
            editor.split(raw).contains(QStringLiteral("\"C:\\Program Files\\Tool; with semicolon\\bin\"")));

        const QString front = editor.withEntry(raw, kOurs, PathEditor::Position::Front).value();
        QCOMPARE(front, kOurs + QLatin1Char(';') + raw);
        QCOMPARE(editor.withoutEntry(front, kOurs), raw);

        // At the back, before the trailing ';', which stays.
        const QString back = editor.withEntry(raw, kOurs, PathEditor::Position::Back).value();
        QCOMPARE(back, raw + kOurs + QLatin1Char(';'));
        QCOMPARE(editor.withoutEntry(back, kOurs), raw);

        // Taking one entry out of the middle takes exactly it and one separator.
        const QString vendor = QStringLiteral("C:\\Program Files\\Vendor 3\\Product With A Long Name\\bin");
        QString expected = raw;
        QVERIFY(expected.contains(QLatin1Char(';') + vendor + QLatin1Char(';')));
        expected.replace(QLatin1Char(';') + vendor + QLatin1Char(';'), QStringLiteral(";"));
        QCOMPARE(editor.withoutEntry(raw, vendor.toUpper() + QLatin1Char('\\')), expected);

        // An entry that is already there, written differently, leaves the value as it is.
        QCOMPARE(
            editor.withEntry(raw, kCuda124 + QStringLiteral("\\bin\\"), PathEditor::Position::Front).value(),
            raw);
        QCOMPARE(editor.withEntry(raw, QStringLiteral("c:\\windows\\SYSTEM32"), PathEditor::Position::Back)
                     .value(),
                 raw);
    }

    void normalise_data()
    {
        QTest::addColumn<int>("family");
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("same");
        const int windows = int(OsFamily::Windows);
        const int linux = int(OsFamily::Linux);
        QTest::newRow("variable") << windows << QStringLiteral("%CUDA_PATH%\\bin")
                                  << kCuda124 + QStringLiteral("\\bin") << true;
        QTest::newRow("variable case")
            << windows << QStringLiteral("%cuda_path%\\BIN\\") << kCuda124 + QStringLiteral("\\bin") << true;
        QTest::newRow("other variable") << windows << QStringLiteral("%CUDA_PATH_V11_8%\\bin")
                                        << kCuda124 + QStringLiteral("\\bin") << false;
        QTest::newRow("case") << windows << QStringLiteral("C:\\WINDOWS\\System32")
                              << QStringLiteral("c:\\windows\\system32") << true;
        QTest::newRow("trailing backslash")
            << windows << QStringLiteral("C:\\a\\") << QStringLiteral("C:\\a") << true;
        QTest::newRow("trailing backslashes")
            << windows << QStringLiteral("C:\\a\\\\") << QStringLiteral("C:\\a") << true;
        QTest::newRow("slashes") << windows << QStringLiteral("C:/Program Files/x/")
                                 << QStringLiteral("C:\\Program Files\\x") << true;
        QTest::newRow("quotes") << windows << QStringLiteral("\"C:\\Program Files\\x\"")
                                << QStringLiteral("C:\\Program Files\\x") << true;
        QTest::newRow("spaces") << windows << QStringLiteral("  C:\\a  ") << QStringLiteral("C:\\a") << true;
        QTest::newRow("dot dot") << windows << QStringLiteral("C:\\a\\b\\..") << QStringLiteral("C:\\a")
                                 << true;
        QTest::newRow("prefix is not equal")
            << windows << QStringLiteral("C:\\a\\bin") << QStringLiteral("C:\\a\\bin2") << false;
        QTest::newRow("unknown variable kept")
            << windows << QStringLiteral("%NOPE%\\bin") << QStringLiteral("%nope%\\BIN") << true;
        QTest::newRow("unknown is not empty")
            << windows << QStringLiteral("%NOPE%\\bin") << QStringLiteral("\\bin") << false;
        QTest::newRow("empty") << windows << QString() << QString() << false;
        QTest::newRow("linux case") << linux << QStringLiteral("/usr/Bin") << QStringLiteral("/usr/bin")
                                    << false;
        QTest::newRow("linux trailing slash")
            << linux << QStringLiteral("/usr/bin/") << QStringLiteral("/usr/bin") << true;
        QTest::newRow("linux variable") << linux << QStringLiteral("$HOME/.local/bin")
                                        << QStringLiteral("/home/zhang/.local/bin") << true;
    }
    void normalise()
    {
        QFETCH(int, family);
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, same);
        const PathEditor editor(OsFamily(family), lookup);
        QCOMPARE(editor.sameEntry(a, b), same);
        if (same)
            QCOMPARE(editor.normalise(a), editor.normalise(b));
    }

    void normaliseForm()
    {
        const PathEditor editor = windowsEditor();
        QCOMPARE(editor.normalise(QStringLiteral("%CUDA_PATH%\\bin\\")),
                 QStringLiteral("c:\\program files\\nvidia gpu computing toolkit\\cuda\\v12.4\\bin"));
        QCOMPARE(editor.expanded(QStringLiteral("\"%CUDA_PATH%\\bin\"")), kCuda124 + QStringLiteral("\\bin"));
        QCOMPARE(editor.normalise(QStringLiteral("C:\\")), QStringLiteral("c:\\"));
        // Without a lookup nothing is expanded.
        const PathEditor plain(OsFamily::Windows);
        QCOMPARE(plain.normalise(QStringLiteral("%CUDA_PATH%\\bin")), QStringLiteral("%cuda_path%\\bin"));
    }

    void addIsPositionAware()
    {
        const PathEditor editor = windowsEditor();
        const auto add = [&](const QString &raw, PathEditor::Position position) {
            return editor.withEntry(raw, QStringLiteral("C:\\new"), position).value();
        };
        using P = PathEditor::Position;
        QCOMPARE(add(QString(), P::Front), QStringLiteral("C:\\new"));
        QCOMPARE(add(QString(), P::Back), QStringLiteral("C:\\new"));
        QCOMPARE(add(QStringLiteral("C:\\a;C:\\b"), P::Front), QStringLiteral("C:\\new;C:\\a;C:\\b"));
        QCOMPARE(add(QStringLiteral("C:\\a;C:\\b"), P::Back), QStringLiteral("C:\\a;C:\\b;C:\\new"));
        QCOMPARE(add(QStringLiteral("C:\\a;C:\\b;"), P::Back), QStringLiteral("C:\\a;C:\\b;C:\\new;"));
        QCOMPARE(add(QStringLiteral("C:\\a;;"), P::Back), QStringLiteral("C:\\a;;C:\\new;"));
        QCOMPARE(add(QStringLiteral(";"), P::Back), QStringLiteral(";C:\\new;"));
        QCOMPARE(add(QStringLiteral(";C:\\a"), P::Front), QStringLiteral("C:\\new;;C:\\a"));
        // Present: unchanged, wherever it is and however it is written.
        QCOMPARE(add(QStringLiteral("C:\\a;\"c:/NEW/\";C:\\b"), P::Front),
                 QStringLiteral("C:\\a;\"c:/NEW/\";C:\\b"));

        // An entry with ';' goes in quoted and is found again.
        const QString semicolon = QStringLiteral("D:\\odd;name\\bin");
        const QString withOdd = editor.withEntry(QStringLiteral("C:\\a"), semicolon, P::Back).value();
        QCOMPARE(withOdd, QStringLiteral("C:\\a;\"D:\\odd;name\\bin\""));
        QCOMPARE(editor.indexOf(withOdd, semicolon), 1);
        QCOMPARE(editor.withoutEntry(withOdd, semicolon), QStringLiteral("C:\\a"));

        // What PATH cannot hold is refused.
        const auto quote = editor.withEntry(QStringLiteral("C:\\a"), QStringLiteral("C:\\x\"y"), P::Front);
        QVERIFY(!quote);
        QCOMPARE(quote.error().id, QStringLiteral("path.entry-invalid"));
        QCOMPARE(quote.error().severity, Severity::Error);
        QVERIFY(!quote.error().message.toString().isEmpty());
        QVERIFY(!editor.withEntry(QStringLiteral("C:\\a"), QStringLiteral("  "), P::Front));
    }

    void removeTakesExactlyTheEqualEntries()
    {
        const PathEditor editor = windowsEditor();
        const QString raw =
            QStringLiteral("C:\\a;%CUDA_PATH%\\bin;C:\\b;;\"C:\\Program Files\\NVIDIA GPU Computing "
                           "Toolkit\\CUDA\\v12.4\\bin\\\";"
                           "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin2;C:\\c;");
        QCOMPARE(
            editor.withoutEntry(raw, kCuda124 + QStringLiteral("\\bin")),
            QStringLiteral(
                "C:\\a;C:\\b;;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4\\bin2;C:\\c;"));
        QCOMPARE(editor.withoutEntry(raw, QStringLiteral("C:\\c")),
                 QStringLiteral("C:\\a;%CUDA_PATH%\\bin;C:\\b;;\"C:\\Program Files\\NVIDIA GPU Computing "
                                "Toolkit\\CUDA\\v12.4\\bin\\\";C:\\Program Files\\NVIDIA GPU Computing "
                                "Toolkit\\CUDA\\v12.4\\bin2;"));
        QCOMPARE(editor.withoutEntry(raw, QStringLiteral("C:\\a")), raw.mid(5));
        QCOMPARE(editor.withoutEntry(QStringLiteral("C:\\only"), QStringLiteral("c:\\ONLY\\")), QString());
        QCOMPARE(editor.withoutEntry(raw, QString()), raw); // empty entries stay
    }

    void analyseFindsDuplicatesAndStaleEntries()
    {
        const PathEditor editor = windowsEditor();
        const QString oldCudnn = QStringLiteral("C:\\tools\\cudnn-8.9\\bin");
        const QString laterCudnn = QStringLiteral("D:\\cudnn-9.0\\bin");
        const QStringList pieces = {
            QStringLiteral("%SystemRoot%\\system32"),                  // 0
            oldCudnn,                                                  // 1: another cuDNN, before ours
            QStringLiteral("%CUDA_PATH_V11_8%\\bin"),                  // 2: CUDA 11.8 bin, before ours
            QStringLiteral("%CUDA_PATH%\\bin"),                        // 3: CUDA 12.4, the one ours is for
            QString(),                                                 // 4
            kOurs,                                                     // 5: ours
            QStringLiteral("c:/program files/nvidia/cudnn/v9.1/bin/"), // 6: ours again
            laterCudnn,                                                // 7: another cuDNN, after ours
            kCuda118 + QStringLiteral("\\bin\\x64"),                   // 8: CUDA 11.8 again, after
            QString(),                                                 // 9: trailing ';'
        };
        const QString raw = pieces.join(QLatin1Char(';'));
        QStringList asked;
        const auto isCudnn = [&](const QString &folder) {
            asked.append(folder);
            return folder == oldCudnn || folder == laterCudnn;
        };
        const PathAnalysis analysis =
            editor.analyse(raw, kOurs, isCudnn, PathEditor::Position::Front, QStringLiteral("12.4"));
        QCOMPARE(analysis.entries, pieces);
        QCOMPARE(analysis.ourIndex, 5);
        QVERIFY(!analysis.needsAdding);
        QCOMPARE(kinds(analysis), (QStringList{
                                      QStringLiteral("path.shadowing-cudnn:1:before"),
                                      QStringLiteral("path.shadowing-cuda:2:before"),
                                      QStringLiteral("path.duplicate:6:after"),
                                      QStringLiteral("path.stale-cudnn:7:after"),
                                      QStringLiteral("path.stale-cuda:8:after"),
                                  }));
        // The callback got expanded folders, never ours, never empty entries.
        QVERIFY(asked.contains(QStringLiteral("C:\\Windows\\system32")));
        QVERIFY(asked.contains(kCuda118 + QStringLiteral("\\bin")));
        QVERIFY(!asked.contains(kOurs));
        QVERIFY(!asked.contains(QString()));

        const PathProblem &cuda = analysis.problems.at(1);
        QCOMPARE(cuda.kind, PathProblem::Kind::OtherCudaBin);
        QCOMPARE(cuda.cudaVersion, QStringLiteral("11.8"));
        QCOMPARE(cuda.folder, kCuda118 + QStringLiteral("\\bin"));
        QCOMPARE(cuda.finding.severity, Severity::Warning);
        QVERIFY(cuda.finding.message.toEnglish().contains(QStringLiteral("CUDA 11.8")));
        QCOMPARE(analysis.problems.at(0).kind, PathProblem::Kind::OtherCudnn);
        QCOMPARE(analysis.problems.at(0).fixes,
                 (QList<PathFix>{{PathFix::Action::MoveBehindOurs, 1, oldCudnn},
                                 {PathFix::Action::Remove, 1, oldCudnn}}));
        QCOMPARE(analysis.problems.at(3).fixes, (QList<PathFix>{{PathFix::Action::Remove, 7, laterCudnn}}));
        QCOMPARE(analysis.problems.at(3).finding.severity, Severity::Info);
        QCOMPARE(analysis.recommended, (QList<PathFix>{
                                           {PathFix::Action::MoveBehindOurs, 1, oldCudnn},
                                           {PathFix::Action::MoveBehindOurs, 2, pieces.at(2)},
                                           {PathFix::Action::Remove, 6, pieces.at(6)},
                                       }));

        // The preview: ours now comes before both, its copy is gone; the rest is as written.
        QCOMPARE(analysis.preview.before,
                 (QStringList{pieces.at(0), pieces.at(1), pieces.at(2), pieces.at(3), pieces.at(5),
                              pieces.at(6), pieces.at(7), pieces.at(8)}));
        QCOMPARE(analysis.preview.after, (QStringList{pieces.at(0), pieces.at(3), kOurs, oldCudnn,
                                                      pieces.at(2), laterCudnn, pieces.at(8)}));
        // Nothing was applied: the analysis only reads.
        QCOMPARE(editor.edited(raw, kOurs, PathEditor::Position::Front, analysis.recommended).value(),
                 (QStringList{pieces.at(0), pieces.at(3), QString(), kOurs, oldCudnn, pieces.at(2),
                              laterCudnn, pieces.at(8), QString()}
                      .join(QLatin1Char(';'))));
    }

    void analyseWithoutOurs()
    {
        const PathEditor editor = windowsEditor();
        const QString raw = QStringLiteral("C:\\old-cudnn;C:\\x;%CUDA_PATH_V11_8%\\bin");
        const auto isCudnn = [](const QString &folder) { return folder == QLatin1String("C:\\old-cudnn"); };
        const QString ours = kCuda124 + QStringLiteral("\\bin");

        // Front: nothing comes before ours; the CUDA version is taken from ours, a CUDA bin.
        const PathAnalysis front = editor.analyse(raw, ours, isCudnn, PathEditor::Position::Front);
        QVERIFY(front.needsAdding);
        QCOMPARE(front.ourIndex, -1);
        QCOMPARE(kinds(front), (QStringList{QStringLiteral("path.stale-cudnn:0:after"),
                                            QStringLiteral("path.stale-cuda:2:after")}));
        QVERIFY(front.recommended.isEmpty());
        QCOMPARE(front.preview.after,
                 (QStringList{ours, QStringLiteral("C:\\old-cudnn"), QStringLiteral("C:\\x"),
                              QStringLiteral("%CUDA_PATH_V11_8%\\bin")}));

        // Back: everything comes before ours; moving puts them behind it, in their order.
        const PathAnalysis back = editor.analyse(raw, ours, isCudnn, PathEditor::Position::Back);
        QCOMPARE(kinds(back), (QStringList{QStringLiteral("path.shadowing-cudnn:0:before"),
                                           QStringLiteral("path.shadowing-cuda:2:before")}));
        QCOMPARE(back.preview.after,
                 (QStringList{QStringLiteral("C:\\x"), ours, QStringLiteral("C:\\old-cudnn"),
                              QStringLiteral("%CUDA_PATH_V11_8%\\bin")}));

        // No CUDA version known (ours is no CUDA bin, none given): CUDA bins are not judged.
        const PathAnalysis unknown = editor.analyse(raw, kOurs, isCudnn, PathEditor::Position::Back);
        QCOMPARE(kinds(unknown), (QStringList{QStringLiteral("path.shadowing-cudnn:0:before")}));
        // A major-only version matches every minor.
        const PathAnalysis major =
            editor.analyse(raw, kOurs, isCudnn, PathEditor::Position::Back, QStringLiteral("11"));
        QCOMPARE(kinds(major), (QStringList{QStringLiteral("path.shadowing-cudnn:0:before")}));
    }

    void editedAppliesOnlyTheChosenFixes()
    {
        const PathEditor editor = windowsEditor();
        const QString raw = QStringLiteral("C:\\a;C:\\b;C:\\c;C:\\ours;C:\\d;");
        using A = PathFix::Action;
        const QString ours = QStringLiteral("C:\\ours");
        QCOMPARE(editor.edited(raw, ours, PathEditor::Position::Front, {}).value(), raw);
        QCOMPARE(
            editor.edited(raw, ours, PathEditor::Position::Front, {{A::Remove, 1, QStringLiteral("C:\\b")}})
                .value(),
            QStringLiteral("C:\\a;C:\\c;C:\\ours;C:\\d;"));
        // Moved entries follow ours in their old order, whatever the order of the fixes.
        QCOMPARE(editor
                     .edited(raw, ours, PathEditor::Position::Front,
                             {{A::MoveBehindOurs, 2, QStringLiteral("C:\\c")},
                              {A::MoveBehindOurs, 0, QStringLiteral("C:\\a")}})
                     .value(),
                 QStringLiteral("C:\\b;C:\\ours;C:\\a;C:\\c;C:\\d;"));
        // Removing wins over moving the same entry; a fix on ours is ignored.
        QCOMPARE(editor
                     .edited(raw, ours, PathEditor::Position::Front,
                             {{A::MoveBehindOurs, 0, QStringLiteral("C:\\a")},
                              {A::Remove, 0, QStringLiteral("C:\\a")},
                              {A::Remove, 3, ours}})
                     .value(),
                 QStringLiteral("C:\\b;C:\\c;C:\\ours;C:\\d;"));
        // A PATH that changed since the analysis is not edited.
        const auto changed =
            editor.edited(raw, ours, PathEditor::Position::Front, {{A::Remove, 1, QStringLiteral("C:\\x")}});
        QVERIFY(!changed);
        QCOMPARE(changed.error().id, QStringLiteral("path.changed"));
        QVERIFY(!editor.edited(raw, ours, PathEditor::Position::Front,
                               {{A::Remove, 9, QStringLiteral("C:\\a")}}));
        QVERIFY(!editor.preview(raw, ours, PathEditor::Position::Front, {{A::Remove, -1, QString()}}));
        // Ours missing and at the back: added before the trailing ';', moved ones after it.
        QCOMPARE(editor
                     .edited(QStringLiteral("C:\\a;C:\\b;"), ours, PathEditor::Position::Back,
                             {{A::MoveBehindOurs, 0, QStringLiteral("C:\\a")}})
                     .value(),
                 QStringLiteral("C:\\b;C:\\ours;C:\\a;"));
    }

    void lengthWarnings()
    {
        const PathEditor editor = windowsEditor();
        QVERIFY(editor.lengthWarnings(QString(2047, QLatin1Char('x'))).isEmpty());
        const Findings long2048 = editor.lengthWarnings(QString(2048, QLatin1Char('x')));
        QCOMPARE(long2048.size(), 1);
        QCOMPARE(long2048.first().id, QStringLiteral("path.long"));
        QCOMPARE(long2048.first().severity, Severity::Warning);
        QVERIFY(long2048.first().message.toEnglish().contains(QStringLiteral("2048")));
        QVERIFY(!long2048.first().fix.isEmpty());
        QCOMPARE(editor.lengthWarnings(bigWindowsPath()).first().id, QStringLiteral("path.long"));
        QVERIFY(editor.lengthWarnings(QString(32767, QLatin1Char('x'))).first().id ==
                QLatin1String("path.long"));
        const Findings tooLong = editor.lengthWarnings(QString(32768, QLatin1Char('x')));
        QCOMPARE(tooLong.size(), 1);
        QCOMPARE(tooLong.first().id, QStringLiteral("path.too-long"));
        QCOMPARE(tooLong.first().severity, Severity::Error);
        QVERIFY(PathEditor(OsFamily::Linux).lengthWarnings(QString(40000, QLatin1Char('x'))).isEmpty());
    }

    void cudaBinVersion_data()
    {
        QTest::addColumn<int>("family");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("version");
        const int windows = int(OsFamily::Windows);
        QTest::newRow("default") << windows << kCuda124 + QStringLiteral("\\bin") << QStringLiteral("12.4");
        QTest::newRow("cuda 13") << windows
                                 << QStringLiteral("C:\\Program Files\\NVIDIA GPU Computing "
                                                   "Toolkit\\CUDA\\v13.0\\bin\\x64\\")
                                 << QStringLiteral("13.0");
        QTest::newRow("elsewhere") << windows << QStringLiteral("d:/cuda/V11.8/BIN")
                                   << QStringLiteral("11.8");
        QTest::newRow("libnvvp") << windows << kCuda124 + QStringLiteral("\\libnvvp") << QString();
        QTest::newRow("no version") << windows << QStringLiteral("C:\\CUDA\\bin") << QString();
        QTest::newRow("not cuda") << windows << QStringLiteral("C:\\tools\\v12.4\\bin") << QString();
        QTest::newRow("linux") << int(OsFamily::Linux) << QStringLiteral("/usr/local/cuda-12.4/bin")
                               << QStringLiteral("12.4");
        QTest::newRow("linux symlink")
            << int(OsFamily::Linux) << QStringLiteral("/usr/local/cuda/bin") << QString();
    }
    void cudaBinVersion()
    {
        QFETCH(int, family);
        QFETCH(QString, folder);
        QFETCH(QString, version);
        QCOMPARE(PathEditor(OsFamily(family)).cudaBinVersion(folder), version);
    }

    void linuxForm()
    {
        const PathEditor editor(OsFamily::Linux, lookup);
        const QString raw = QStringLiteral("/usr/local/cuda-11.8/bin:/usr/bin::/bin:");
        const QString ours = QStringLiteral("/opt/cudnn-9.1/lib");
        QCOMPARE(editor.split(raw),
                 (QStringList{QStringLiteral("/usr/local/cuda-11.8/bin"), QStringLiteral("/usr/bin"),
                              QString(), QStringLiteral("/bin"), QString()}));
        // The empty entries (the current directory) stay where they are.
        QCOMPARE(editor.withEntry(raw, ours, PathEditor::Position::Back).value(),
                 raw + QLatin1Char(':') + ours);
        QCOMPARE(editor.withEntry(raw, ours, PathEditor::Position::Front).value(),
                 ours + QLatin1Char(':') + raw);
        QCOMPARE(editor.withoutEntry(raw + QLatin1Char(':') + ours, ours + QLatin1Char('/')), raw);
        QCOMPARE(editor.withEntry(raw, QStringLiteral("/usr/bin/"), PathEditor::Position::Front).value(),
                 raw);
        QCOMPARE(editor.withEntry(raw, QStringLiteral("/USR/BIN"), PathEditor::Position::Front).value(),
                 QStringLiteral("/USR/BIN:") + raw);
        const auto colon = editor.withEntry(raw, QStringLiteral("/opt/a:b"), PathEditor::Position::Front);
        QVERIFY(!colon);
        QCOMPARE(colon.error().id, QStringLiteral("path.entry-invalid"));
        QVERIFY(editor.lengthWarnings(raw).isEmpty());

        const PathAnalysis analysis =
            editor.analyse(raw, ours, {}, PathEditor::Position::Back, QStringLiteral("12"));
        QCOMPARE(kinds(analysis), (QStringList{QStringLiteral("path.shadowing-cuda:0:before")}));
        QCOMPARE(analysis.preview.after, (QStringList{QStringLiteral("/usr/bin"), QStringLiteral("/bin"),
                                                      ours, QStringLiteral("/usr/local/cuda-11.8/bin")}));
        QCOMPARE(editor.edited(raw, ours, PathEditor::Position::Back, analysis.recommended).value(),
                 QStringLiteral("/usr/bin::/bin::") + ours + QStringLiteral(":/usr/local/cuda-11.8/bin"));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestPathEditor)
#include "tst_patheditor.moc"
