#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QRadioButton;

namespace cudnnsetup::wizard {

// Where "Download it for me" gets the archive: NVIDIA's own download, or a lab's mirror (a web
// address) or a folder or share holding the archives. What is typed is checked (ArchiveSource)
// before the dialog closes.
class DownloadSourceDialog final : public QDialog
{
    Q_OBJECT

public:
    // `source`: as SetupSession::archiveSource() holds it, empty for NVIDIA.
    DownloadSourceDialog(const QString &source, QWidget *parent = nullptr);

    QString source() const;
    void accept() override;

private:
    QRadioButton *m_nvidia = nullptr;
    QRadioButton *m_other = nullptr;
    QLineEdit *m_location = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace cudnnsetup::wizard
