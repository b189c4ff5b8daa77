#include "Sandbox.h"
#include "BuildPaths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace {
// A sandbox that cannot be built makes every later check meaningless: stop loudly.
void require(bool ok, const QString &what)
{
    if (!ok)
        qFatal("sandbox: cannot %s", qPrintable(what));
}
} // namespace

Sandbox::Sandbox() = default;

QString Sandbox::hostPath(const QString &path) const
{
    QString p = path;
    p.replace(QLatin1Char('\\'), QLatin1Char('/'));
    if (p.size() >= 2 && p.at(1) == QLatin1Char(':'))
        p = p.mid(2);
    if (!p.startsWith(QLatin1Char('/')))
        p.prepend(QLatin1Char('/'));
    return QDir::cleanPath(root() + p);
}

void Sandbox::mkdir(const QString &path) const
{
    require(QDir().mkpath(hostPath(path)), QStringLiteral("create %1").arg(path));
}

void Sandbox::write(const QString &path, const QByteArray &content) const
{
    const QString host = hostPath(path);
    QDir().mkpath(QFileInfo(host).absolutePath());
    QFile file(host);
    require(file.open(QIODevice::WriteOnly | QIODevice::Truncate), QStringLiteral("write %1").arg(host));
    file.write(content);
}

void Sandbox::writeScriptBody(const QString &path, const QByteArray &body) const
{
    write(path, QByteArray("#!/bin/sh\n") + body);
    QFile::setPermissions(hostPath(path), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                              QFileDevice::ExeGroup);
}

void Sandbox::writeTool(const QString &path, const ToolBehaviour &behaviour) const
{
    const QString host = hostPath(path);
    QDir().mkpath(QFileInfo(host).absolutePath());
    QFile::remove(host);
    require(QFile::copy(BuildPaths::standinTool(), host),
            QStringLiteral("copy the stand-in tool to %1").arg(host));
    QFile::setPermissions(host, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const QString name = QFileInfo(host).fileName();
    QByteArray spec;
    const auto data = [&](const QString &suffix, const QByteArray &content) {
        write(path + suffix, content);
        return (name + suffix).toUtf8();
    };
    for (int i = 0; i < behaviour.answers.size(); ++i) {
        spec += "answer " + behaviour.answers.at(i).first + ' ' +
                data(QStringLiteral(".answer%1").arg(i), behaviour.answers.at(i).second) + '\n';
    }
    spec += "output " + data(QStringLiteral(".out"), behaviour.output) + '\n';
    if (!behaviour.error.isEmpty())
        spec += "error " + data(QStringLiteral(".err"), behaviour.error) + '\n';
    spec += "sleep " + QByteArray::number(behaviour.sleepMs) + "\nexit " +
            QByteArray::number(behaviour.exitCode) + '\n';
    write(path + QStringLiteral(".spec"), spec);
}

void Sandbox::symlink(const QString &target, const QString &linkPath) const
{
    const QString host = hostPath(linkPath);
    QDir().mkpath(QFileInfo(host).absolutePath());
    require(QFile::link(target, host), QStringLiteral("link %1").arg(linkPath));
}

void Sandbox::copyFrom(const QString &hostSource, const QString &path) const
{
    const QString host = hostPath(path);
    QDir().mkpath(QFileInfo(host).absolutePath());
    QFile::remove(host);
    require(QFile::copy(hostSource, host), QStringLiteral("copy %1").arg(hostSource));
}

QString Sandbox::fixturePath(const QString &relativePath)
{
    return BuildPaths::fixtures() + QLatin1Char('/') + relativePath;
}

QByteArray Sandbox::readFixture(const QString &relativePath)
{
    QFile file(fixturePath(relativePath));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(relativePath));
    return file.readAll();
}

QString Sandbox::fixtureSection(const QString &relativePath, const QString &title)
{
    const QStringList lines = QString::fromUtf8(readFixture(relativePath)).split(QLatin1Char('\n'));
    QStringList section;
    bool inside = false;
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("== "))) {
            inside = line == QStringLiteral("== ") + title;
            continue;
        }
        if (inside)
            section.append(line);
    }
    return section.join(QLatin1Char('\n'));
}
