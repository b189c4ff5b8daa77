#include <QApplication>
#include <QWizard>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QWizard wizard;
    wizard.show();
    return app.exec();
}
