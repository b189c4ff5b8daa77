#include "Cudnnctl.h"

#include "platform/SystemPaths.h"

#include <QDebug>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>

CudnnctlRun runCudnnctl(const QStringList &arguments, const QProcessEnvironment &environment,
                        const QString &program, const QString &workingDirectory, const QByteArray &input)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(workingDirectory);
    process.start(program, arguments);
    process.write(input);
    process.closeWriteChannel();
    CudnnctlRun run;
    if (!process.waitForFinished(60000)) {
        process.kill();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

QJsonObject outputJson(const CudnnctlRun &run)
{
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning() << "not JSON:" << error.errorString() << run.out.left(500) << run.err.left(500);
    return document.object();
}

QStringList findingIds(const QJsonObject &report)
{
    QStringList ids;
    for (const QJsonValue &finding : report.value(QStringLiteral("findings")).toArray())
        ids.append(finding.toObject().value(QStringLiteral("id")).toString());
    return ids;
}

QStringList findingIds(const cudnnsetup::Findings &findings)
{
    QStringList ids;
    for (const cudnnsetup::Finding &finding : findings)
        ids.append(finding.id);
    return ids;
}

QJsonObject onlyConsumer(const QJsonObject &report)
{
    const QJsonArray consumers = report.value(QStringLiteral("consumers")).toArray();
    if (consumers.size() != 1)
        qWarning("%s", QJsonDocument(report).toJson().constData());
    return consumers.size() == 1 ? consumers.first().toObject() : QJsonObject();
}

QString boundPath(const QJsonObject &consumer)
{
    return consumer.value(QStringLiteral("bound")).toObject().value(QStringLiteral("path")).toString();
}

QString pastErrorProblem(const CudnnctlRun &doctor)
{
    const QJsonObject first =
        outputJson(doctor).value(QStringLiteral("diagnoses")).toArray().first().toObject();
    const bool asExpected = first.value(QStringLiteral("id")).toString().startsWith(QLatin1String("log.")) &&
                            first.value(QStringLiteral("severity")).toString() == QLatin1String("info") &&
                            first.value(QStringLiteral("message"))
                                .toString()
                                .contains(QStringLiteral("does not happen here now")) &&
                            first.value(QStringLiteral("repair")).isNull();
    return asExpected ? QString() : QString::fromUtf8(doctor.out + doctor.err);
}

QProcessEnvironment sandboxEnvironment()
{
    if (cudnnsetup::hostOsFamily() == cudnnsetup::OsFamily::Windows) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("PATH"), QStringLiteral("C:\\Windows\\System32;C:\\Python312"));
        return environment;
    }
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), QStringLiteral("/opt/torch/.venv/bin:/usr/bin:/bin"));
    environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    return environment;
}
