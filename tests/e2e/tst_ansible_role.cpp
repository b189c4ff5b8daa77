// Issue 34: the Ansible role of deploy/ansible, run by Debian's ansible-playbook against this
// machine (connection local) and a --system-root sandbox of a Linux workstation: the first run
// applies the repair file `status --against --repair-file` writes, which installs NVIDIA's tar.xz
// from the lab's share (changed), the second changes nothing, and the fact it sets is what
// `cudnnctl status --against --json` answers afterwards; drifted between runs (the loader's entry
// removed), the next run repairs it (changed=1) and the one after changes nothing again.
#include "BuildPaths.h"
#include "CudnnArchiveLists.h"
#include "Cudnnctl.h"
#include "Sandbox.h"
#include "Suite.h"
#include "TarWriter.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#ifndef Q_OS_WIN
#include <unistd.h>
#endif

namespace {

const QString kVersion = QStringLiteral("9.19.0.56");
const QString kTarget = QStringLiteral("/opt/cudnn");

bool writeAll(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(content) == content.size();
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// What one `ansible-playbook` run printed, its exit code, and the last result it had for this host
// (the tree callback's file: the playbook's last task shows the role's fact).
struct PlaybookRun
{
    int exitCode = -1;
    QByteArray output;
    QJsonObject lastResult;

    // A count of this host's line in the PLAY RECAP ("localhost : ok=9 changed=1 ..."); -1: none.
    int recap(const QString &count) const
    {
        const QRegularExpression line(QStringLiteral("^localhost\\s*:.*\\b%1=(\\d+)").arg(count),
                                      QRegularExpression::MultilineOption);
        const QRegularExpressionMatch match = line.match(QString::fromUtf8(output));
        return match.hasMatch() ? match.captured(1).toInt() : -1;
    }
};

} // namespace

class TestAnsibleRole : public QObject
{
    Q_OBJECT

    QTemporaryDir m_work; // the lab's share, ansible's own folders: outside the sandbox
    QString m_playbookProgram;

    // The environment of ansible-playbook, which its tasks (cudnnctl) inherit: the sandbox's PATH,
    // and ansible's own files in the work folder rather than in a home folder.
    QProcessEnvironment environment() const
    {
        QProcessEnvironment environment = sandboxEnvironment();
        environment.insert(QStringLiteral("HOME"), m_work.filePath(QStringLiteral("home")));
        environment.insert(QStringLiteral("ANSIBLE_HOME"), m_work.filePath(QStringLiteral("ansible")));
        environment.insert(QStringLiteral("ANSIBLE_LOCAL_TEMP"),
                           m_work.filePath(QStringLiteral("ansible/tmp")));
        environment.insert(QStringLiteral("ANSIBLE_REMOTE_TEMP"),
                           m_work.filePath(QStringLiteral("ansible/tmp")));
        environment.insert(QStringLiteral("ANSIBLE_CALLBACKS_ENABLED"),
                           QStringLiteral("ansible.builtin.tree"));
        environment.insert(QStringLiteral("ANSIBLE_CALLBACK_TREE_DIR"),
                           m_work.filePath(QStringLiteral("tree")));
        environment.insert(QStringLiteral("ANSIBLE_PYTHON_INTERPRETER"), QStringLiteral("auto_silent"));
        environment.insert(QStringLiteral("ANSIBLE_NOCOLOR"), QStringLiteral("1"));
        environment.insert(QStringLiteral("ANSIBLE_RETRY_FILES_ENABLED"), QStringLiteral("0"));
        return environment;
    }
    PlaybookRun playbook(const QString &variables) const
    {
        PlaybookRun run;
        QFile tree(m_work.filePath(QStringLiteral("tree/localhost")));
        tree.remove(); // an earlier run's
        QProcess process;
        process.setProcessEnvironment(environment());
        process.setWorkingDirectory(m_work.path()); // no ansible.cfg of the checkout's folder
        process.start(m_playbookProgram,
                      {QStringLiteral("--inventory"), QStringLiteral("localhost,"),
                       QStringLiteral("--connection"), QStringLiteral("local"),
                       QStringLiteral("--extra-vars"), QLatin1Char('@') + variables,
                       BuildPaths::sourceDir() + QStringLiteral("/deploy/ansible/cudnn-lab.yml")});
        if (!process.waitForFinished(120000)) {
            process.kill();
            process.waitForFinished();
            return run;
        }
        run.output = process.readAllStandardOutput() + process.readAllStandardError();
        run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        if (tree.open(QIODevice::ReadOnly))
            run.lastResult = QJsonDocument::fromJson(tree.readAll()).object();
        return run;
    }

private Q_SLOTS:
    void initTestCase()
    {
        SKIP_UNLESS_HOST(cudnnsetup::OsFamily::Linux, "Ansible's Linux tasks on a Linux tree");
        m_playbookProgram = QStandardPaths::findExecutable(QStringLiteral("ansible-playbook"));
        if (m_playbookProgram.isEmpty())
            QSKIP("ansible-playbook is not installed (Debian's ansible-core: scripts/debian.sh installs it)");
        QVERIFY(m_work.isValid());
        QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("ansible/tmp")));
        QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("home")));
    }

    // The lab's share holds NVIDIA's tar.xz and the room's baseline (made from its answer file); the
    // role run twice: installed the first time, nothing changed the second, the fact the verdict;
    // then drifted, repaired by the next run, and left alone by the one after.
    void installedRepairedAndIdempotent()
    {
        Sandbox sandbox;
        sandbox.mkdir(QStringLiteral("/etc/ld.so.conf.d"));
        sandbox.mkdir(QStringLiteral("/var/lib"));
        sandbox.mkdir(QStringLiteral("/opt"));
        QVERIFY(QDir(m_work.path()).mkpath(QStringLiteral("share")));
        const QString share = m_work.filePath(QStringLiteral("share"));
        const QString archive = share + QStringLiteral("/cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz");
#ifdef CUDNNSETUP_HAVE_LIBARCHIVE
        QVERIFY(writeAll(archive, archives::linuxTarXz(kVersion, QStringLiteral("13"))));
#else
        QSKIP("NVIDIA's Linux tar.xz is made with libarchive, which this build has not");
#endif
        // The test-made tar stands in for NVIDIA's file of that name (the database knows its checksum).
        const QString database =
            archives::writeDatabaseKnowing(m_work.filePath(QStringLiteral("compat.json")), {archive});
#ifndef Q_OS_WIN
        // The loader is only given folders root alone can change; as another user, the sandbox's
        // are not, so the install there is for no PATH.
        const QString scope = ::geteuid() == 0 ? QStringLiteral("system") : QStringLiteral("none");
#else
        const QString scope = QStringLiteral("none");
#endif
        const QString answers = share + QStringLiteral("/setup.ini");
        QVERIFY(
            writeAll(answers, QStringLiteral("[setup]\narchive=%1\ntarget=dir:%2\npath=%3\nverify=false\n")
                                  .arg(archive, kTarget, scope)
                                  .toUtf8()));
        const QStringList machine{QStringLiteral("--system-root"), sandbox.root(),
                                  QStringLiteral("--compat-db"), database};
        const QString baseline = share + QStringLiteral("/lab.json");
        const CudnnctlRun exported = runCudnnctl(
            QStringList{QStringLiteral("baseline"), QStringLiteral("export"), QStringLiteral("--from-answer"),
                        answers, QStringLiteral("--out"), baseline} +
                machine,
            environment());
        QVERIFY2(exported.exitCode == 0, exported.out + exported.err);
        // Which cuDNN a new program loads a sandbox cannot tell (no loader cache of its own): the
        // room's baseline asks for the loader's entry, not its order, as lab IT edits one by hand.
        QJsonObject room = QJsonDocument::fromJson(readAll(baseline)).object();
        QJsonObject path = room.value(QStringLiteral("path")).toObject();
        path.insert(QStringLiteral("position"), QStringLiteral("any"));
        room.insert(QStringLiteral("path"), path);
        QVERIFY(writeAll(baseline, QJsonDocument(room).toJson()));
        const QStringList against{QStringLiteral("status"), QStringLiteral("--against"), baseline,
                                  QStringLiteral("--json")};
        const CudnnctlRun before = runCudnnctl(against + machine, environment());
        QVERIFY2(before.exitCode != 0, before.out + before.err); // nothing installed yet

        const QString variables = m_work.filePath(QStringLiteral("vars.json"));
        const QJsonObject values{{QStringLiteral("cudnn_setup_cudnnctl"), BuildPaths::cudnnctl()},
                                 {QStringLiteral("cudnn_setup_share"), share},
                                 {QStringLiteral("cudnn_setup_repair_file"),
                                  m_work.filePath(QStringLiteral("lab-state/repair.ini"))},
                                 {QStringLiteral("cudnn_setup_system_root"), sandbox.root()},
                                 {QStringLiteral("cudnn_setup_compat_db"), database}};
        QVERIFY(writeAll(variables, QJsonDocument(values).toJson()));

        const PlaybookRun first = playbook(variables);
        QVERIFY2(first.exitCode == 0, first.output.constData());
        QVERIFY2(first.recap(QStringLiteral("changed")) > 0, first.output.constData());
        QCOMPARE(first.recap(QStringLiteral("failed")), 0);
        QVERIFY2(QFileInfo(sandbox.hostPath(kTarget + QStringLiteral("/lib/libcudnn.so.9"))).isSymLink(),
                 first.output.constData());

        const PlaybookRun second = playbook(variables);
        QVERIFY2(second.exitCode == 0, second.output.constData());
        QVERIFY2(second.recap(QStringLiteral("changed")) == 0, second.output.constData());
        QVERIFY(second.recap(QStringLiteral("ok")) > 0);

        const CudnnctlRun after = runCudnnctl(against + machine, environment());
        QVERIFY2(after.exitCode == 0, after.out + after.err);
        const QJsonObject status = outputJson(after);
        QCOMPARE(status.value(QStringLiteral("verdict")).toString(), QStringLiteral("compliant"));
        const QJsonObject fact = second.lastResult.value(QStringLiteral("cudnn_setup_status")).toObject();
        QVERIFY2(fact == status, QJsonDocument(fact).toJson() + QJsonDocument(status).toJson());
        QCOMPARE(first.lastResult.value(QStringLiteral("cudnn_setup_status")).toObject(), status);

        // Drift between runs: the loader's file that names the DLL folder gone (Linux's PATH entry),
        // or, as another user (no loader entry), a library replaced.
        const QJsonObject target = room.value(QStringLiteral("target")).toObject();
        const QString loaderFile = target.value(QStringLiteral("ldSoConfFile")).toString();
        if (scope == QLatin1String("system")) {
            QVERIFY(QFile::remove(sandbox.hostPath(loaderFile)));
        } else {
            const QFileInfo library(sandbox.hostPath(kTarget + QStringLiteral("/lib/libcudnn.so.9")));
            QVERIFY(writeAll(library.symLinkTarget(), "another build"));
        }
        QCOMPARE(runCudnnctl(against + machine, environment()).exitCode, 1);
        const PlaybookRun repaired = playbook(variables);
        QVERIFY2(repaired.exitCode == 0, repaired.output.constData());
        QVERIFY2(repaired.recap(QStringLiteral("changed")) == 1, repaired.output.constData());
        // The change was the repair file's, applied: not another install of the share's archive.
        const QRegularExpression applied(QStringLiteral(
            "TASK \\[cudnn_setup : Apply the repair file\\] \\**\\s*changed: \\[localhost\\]"));
        QVERIFY2(applied.match(QString::fromUtf8(repaired.output)).hasMatch(), repaired.output.constData());
        QVERIFY(readAll(m_work.filePath(QStringLiteral("lab-state/repair.ini"))).contains("action=install"));
        if (scope == QLatin1String("system"))
            QVERIFY(QFileInfo::exists(sandbox.hostPath(loaderFile)));
        const PlaybookRun idle = playbook(variables);
        QVERIFY2(idle.exitCode == 0, idle.output.constData());
        QVERIFY2(idle.recap(QStringLiteral("changed")) == 0, idle.output.constData());
        const CudnnctlRun back = runCudnnctl(against + machine, environment());
        QVERIFY2(back.exitCode == 0, back.out + back.err);
        QCOMPARE(idle.lastResult.value(QStringLiteral("cudnn_setup_status")).toObject(), outputJson(back));
    }
};

CUDNNSETUP_TEST_GUILESS_MAIN(TestAnsibleRole)
#include "tst_ansible_role.moc"
