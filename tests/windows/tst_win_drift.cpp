// Issue 34 on the running Windows (Wine's, in CI): a workstation's drift from the lab's baseline
// judged in the real registry's PATH, and the repair file `status --against --repair-file` writes
// applied unattended (`cudnnctl apply`): the DLL folder gone from the PATH of the baseline's scope,
// another cuDNN first on it, a DLL replaced. Each answers 1 with its item, and the repair brings the
// machine back to 0 with the folder first on that PATH. The system PATH rows need a Program Files
// that only administrators change, which Wine has not (no owners or DACLs but this account's): they
// run on Windows, and under Wine the refusal to put a folder others may change on the system PATH
// is shown instead.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "PeImage.h"
#include "Suite.h"
#include "SystemTrees.h"
#include "install/PathEditor.h"
#include "platform/FileSecurity.h"
#include "platform/PersistentEnvironment.h"
#include "platform/SystemContext.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace cudnnsetup;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

QJsonObject differences(const QJsonObject &report)
{
    QJsonObject byId;
    for (const QJsonValue &entry : report.value(QStringLiteral("differences")).toArray())
        byId.insert(entry.toObject().value(QStringLiteral("id")).toString(), entry);
    return byId;
}

} // namespace

class TestWinDrift : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work;
    archives::StandIn m_standIn;
    std::shared_ptr<PersistentEnvironment> m_environment = PersistentEnvironment::forRunningSystem();
    std::optional<StoredEnvironmentValue> m_userPath;
    std::optional<StoredEnvironmentValue> m_machinePath;
    bool m_programFilesAdminsOnly = false; // a system PATH folder may go there

    QString native(const QString &name) const { return QDir::toNativeSeparators(m_work.filePath(name)); }

    CudnnctlRun run(const QStringList &arguments, const QString &program = BuildPaths::cudnnctl()) const
    {
        return runCudnnctl(arguments + QStringList{QStringLiteral("--lang"), QStringLiteral("en"),
                                                   QStringLiteral("--compat-db"), m_standIn.database},
                           QProcessEnvironment::systemEnvironment(), program);
    }

    std::optional<StoredEnvironmentValue> path(EnvironmentScope scope) const
    {
        const auto value = m_environment->read(scope, QStringLiteral("PATH"));
        return value ? *value : std::nullopt;
    }
    void setPath(EnvironmentScope scope, const QString &text) const
    {
        const std::optional<StoredEnvironmentValue> now = path(scope);
        QVERIFY(m_environment->write(scope, QStringLiteral("PATH"), {text, now ? now->expandable : true}));
    }
    void restore(EnvironmentScope scope, const std::optional<StoredEnvironmentValue> &value) const
    {
        const Expected<void> restored = value ? m_environment->write(scope, QStringLiteral("PATH"), *value)
                                              : m_environment->remove(scope, QStringLiteral("PATH"));
        QVERIFY(restored);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        QVERIFY(m_environment->isAvailable());
        m_standIn = archives::writeStandIn(m_work.path(), QStringLiteral("9.1.0.70"), QStringLiteral("12"));
        // Windows lets administrators alone change Program Files; Wine keeps no owner or DACL but
        // this account's for any folder, so no folder may go on its system PATH.
        m_programFilesAdminsOnly =
            !firstWritableFolder(SystemContext::running(), QStringLiteral("C:\\Program Files\\NVIDIA"));
        m_userPath = path(EnvironmentScope::User);
        m_machinePath = path(EnvironmentScope::System);
        // Another cuDNN, of an older release, as a toolkit or a program leaves one on PATH.
        for (const QString &name : trees::cudnnWindowsDlls(9))
            QVERIFY(writeAll(m_work.filePath(QStringLiteral("other-cudnn/bin/") + name), peimage::x64Dll()));
        QVERIFY(writeAll(m_work.filePath(QStringLiteral("other-cudnn/include/cudnn_version.h")),
                         trees::cudnnVersionHeader(9, 0, 0)));
    }

    void cleanup()
    {
        restore(EnvironmentScope::User, m_userPath);
        restore(EnvironmentScope::System, m_machinePath);
    }

    void roundTrips_data()
    {
        QTest::addColumn<QString>("scope");
        QTest::addColumn<QString>("drift");
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("action"); // of the repair file
        QTest::newRow("user PATH entry removed") << "user"
                                                 << "removed"
                                                 << "path.entry"
                                                 << "repair";
        QTest::newRow("another cuDNN first on the user PATH") << "user"
                                                              << "shadowed"
                                                              << "path.order"
                                                              << "repair";
        QTest::newRow("a DLL replaced") << "user"
                                        << "dll"
                                        << "cudnn.files"
                                        << "install";
        QTest::newRow("system PATH entry removed") << "system"
                                                   << "removed"
                                                   << "path.entry"
                                                   << "repair";
        QTest::newRow("another cuDNN first on the system PATH") << "system"
                                                                << "shadowed"
                                                                << "path.order"
                                                                << "repair";
    }
    void roundTrips()
    {
        QFETCH(QString, scope);
        QFETCH(QString, drift);
        QFETCH(QString, item);
        QFETCH(QString, action);
        if (scope == QLatin1String("system") && !m_programFilesAdminsOnly)
            QSKIP("every folder here can be changed by others than the administrators (Wine keeps no "
                  "owner or DACL but this account's): none may go on the system PATH; "
                  "systemPathRefusedForAFolderOthersChange shows the refusal");
        const EnvironmentScope where =
            scope == QLatin1String("user") ? EnvironmentScope::User : EnvironmentScope::System;
        const QString tag =
            QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-'));
        QVERIFY(QDir(m_work.path()).mkpath(tag));
        // A folder only administrators change, as the system PATH asks (target.writable-system-path).
        const QString root = QStringLiteral("C:\\Program Files\\NVIDIA\\CUDNN\\drift-") + tag;
        const QString dllFolder = root + QStringLiteral("\\bin");
        const CudnnctlRun installed =
            run({QStringLiteral("install"), QStringLiteral("--archive"), m_standIn.archive,
                 QStringLiteral("--target"), QStringLiteral("dir:") + root, QStringLiteral("--path"), scope,
                 QStringLiteral("--json")});
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QString baseline = m_work.filePath(tag + QStringLiteral("/lab.json"));
        const CudnnctlRun exported =
            run({QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--out"), baseline});
        QVERIFY2(exported.exitCode == 0, exported.out + exported.err);
        QCOMPARE(QJsonDocument::fromJson(readAll(baseline)).object().value(QStringLiteral("path")).toObject(),
                 (QJsonObject{{QStringLiteral("scope"), scope},
                              {QStringLiteral("position"), QStringLiteral("first")}}));
        const QStringList against{QStringLiteral("status"), QStringLiteral("--against"), baseline};
        const CudnnctlRun compliant = run(against);
        QVERIFY2(compliant.exitCode == 0, compliant.out + compliant.err);

        const PathEditor editor(OsFamily::Windows);
        const QString otherFolder = native(QStringLiteral("other-cudnn/bin"));
        if (drift == QLatin1String("removed")) {
            setPath(where, editor.withoutEntry(path(where)->text, dllFolder));
        } else if (drift == QLatin1String("shadowed")) {
            const Expected<QString> shadowed =
                editor.withEntry(path(where)->text, otherFolder, PathEditor::Position::Front);
            QVERIFY(shadowed);
            setPath(where, *shadowed);
        } else {
            QVERIFY(writeAll(dllFolder + QStringLiteral("\\cudnn64_9.dll"), peimage::x64Dll() + "9.2.1"));
        }

        const QString repair = m_work.filePath(tag + QStringLiteral("/repair.ini"));
        const CudnnctlRun judged =
            run(against + QStringList{QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(judged.exitCode == 1, judged.out + judged.err);
        const QJsonObject entry = differences(outputJson(judged)).value(item).toObject();
        QVERIFY2(entry.value(QStringLiteral("repairable")).toBool(), judged.out);
        const QString answers = QString::fromUtf8(readAll(repair));
        QVERIFY2(answers.contains(QStringLiteral("action=") + action) &&
                     answers.contains(QStringLiteral("path=") + scope),
                 qPrintable(answers));

        const QString log = m_work.filePath(tag + QStringLiteral("/repair.log"));
        // A new install is verified: the archive's stand-in DLLs export nothing for the handle stage
        // to call (tst_win_verify verifies real stand-ins), so cudnn-setup applies that one with
        // --no-verify over the file's verify=true.
        const CudnnctlRun applied =
            action == QLatin1String("install")
                ? run({QStringLiteral("--unattended"), QStringLiteral("--answer-file"), repair,
                       QStringLiteral("--no-verify"), QStringLiteral("--log"), log},
                      BuildPaths::cudnnSetup())
                : run({QStringLiteral("apply"), repair, QStringLiteral("--log"), log});
        QVERIFY2(applied.exitCode == 0, applied.out + applied.err + readAll(log).right(3000));
        const CudnnctlRun after = run(against);
        QVERIFY2(after.exitCode == 0, after.out + after.err + readAll(log));
        // First on the baseline's own PATH, every other entry kept.
        const QStringList entries = editor.split(path(where)->text);
        QVERIFY2(!entries.isEmpty() && editor.sameEntry(entries.first(), dllFolder),
                 qPrintable(path(where)->text));
        if (drift == QLatin1String("shadowed"))
            QVERIFY2(editor.indexOf(path(where)->text, otherFolder) > 0, qPrintable(path(where)->text));

        // Nothing left for the next row's doctor to take for the one wanted, nor in Program Files:
        // the repair's install uninstalled (it puts the replaced DLL back), then the first one.
        const QString installId = outputJson(installed)
                                      .value(QStringLiteral("receipt"))
                                      .toObject()
                                      .value(QStringLiteral("id"))
                                      .toString();
        if (action == QLatin1String("install")) {
            const QString repairId =
                QJsonDocument::fromJson(readAll(m_work.filePath(tag + QStringLiteral("/repair.json"))))
                    .object()
                    .value(QStringLiteral("change"))
                    .toObject()
                    .value(QStringLiteral("receipt"))
                    .toObject()
                    .value(QStringLiteral("id"))
                    .toString();
            const QByteArray original = readAll(dllFolder + QStringLiteral("\\cudnn64_9.dll"));
            const CudnnctlRun undone = run({QStringLiteral("uninstall"), repairId});
            QVERIFY2(undone.exitCode == 0, undone.out + undone.err);
            QVERIFY(writeAll(dllFolder + QStringLiteral("\\cudnn64_9.dll"), original));
        }
        const CudnnctlRun uninstalled = run({QStringLiteral("uninstall"), installId});
        QVERIFY2(uninstalled.exitCode == 0, uninstalled.out + uninstalled.err);
        QVERIFY(!QFileInfo::exists(root));
    }

    // A repair file puts on the system PATH only a folder no one but the administrators may
    // change, as an install does: one a user may change (this account's temporary folder, installed
    // for no PATH, while the room's baseline wants the system PATH) is refused before any change.
    void systemPathRefusedForAFolderOthersChange()
    {
        const QString root = native(QStringLiteral("refused/cuDNN 9.1"));
        const CudnnctlRun installed =
            run({QStringLiteral("install"), QStringLiteral("--archive"), m_standIn.archive,
                 QStringLiteral("--target"), QStringLiteral("dir:") + root, QStringLiteral("--path"),
                 QStringLiteral("none"), QStringLiteral("--json")});
        QVERIFY2(installed.exitCode == 0, installed.out + installed.err);
        const QString answers = m_work.filePath(QStringLiteral("refused/setup.ini"));
        QVERIFY(writeAll(answers, QStringLiteral("[setup]\r\narchive=%1\r\ntarget=dir:%2\r\npath=system\r\n"
                                                 "verify=false\r\n")
                                      .arg(QDir::toNativeSeparators(m_standIn.archive), root)
                                      .toUtf8()));
        const QString baseline = m_work.filePath(QStringLiteral("refused/lab.json"));
        const CudnnctlRun exported =
            run({QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--from-answer"),
                 answers, QStringLiteral("--out"), baseline});
        QVERIFY2(exported.exitCode == 0, exported.out + exported.err);
        const QStringList against{QStringLiteral("status"), QStringLiteral("--against"), baseline};
        const QString repair = m_work.filePath(QStringLiteral("refused/repair.ini"));
        const CudnnctlRun judged =
            run(against + QStringList{QStringLiteral("--json"), QStringLiteral("--repair-file"), repair});
        QVERIFY2(judged.exitCode == 1, judged.out + judged.err);
        QVERIFY2(differences(outputJson(judged)).contains(QStringLiteral("path.entry")), judged.out);

        const std::optional<StoredEnvironmentValue> before = path(EnvironmentScope::System);
        const QString log = m_work.filePath(QStringLiteral("refused/repair.log"));
        const CudnnctlRun applied = run({QStringLiteral("apply"), repair, QStringLiteral("--log"), log});
        QCOMPARE(applied.exitCode, 1603);
        const QJsonObject result =
            QJsonDocument::fromJson(readAll(m_work.filePath(QStringLiteral("refused/repair.json")))).object();
        QVERIFY2(findingIds(result).contains(QStringLiteral("target.writable-system-path")), readAll(log));
        QCOMPARE(path(EnvironmentScope::System), before);
        QCOMPARE(run(against).exitCode, 1);
        const QString installId = outputJson(installed)
                                      .value(QStringLiteral("receipt"))
                                      .toObject()
                                      .value(QStringLiteral("id"))
                                      .toString();
        QCOMPARE(run({QStringLiteral("uninstall"), installId}).exitCode, 0);
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestWinDrift)
#include "tst_win_drift.moc"
