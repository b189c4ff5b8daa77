// cudnnctl: the command-line face of cuDNN Setup. Argument parsing only; the work is in core.
#include <QCoreApplication>
#include <QTextStream>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cudnnctl"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDNNSETUP_VERSION));
    QTextStream(stdout) << QCoreApplication::applicationVersion() << '\n';
    return 0;
}
