#include "DownloadSourceDialog.h"

#include "download/ArchiveSource.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace cudnnsetup::wizard {

DownloadSourceDialog::DownloadSourceDialog(const QString &source, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("downloadSourceDialog"));
    setWindowTitle(tr("Download settings"));
    auto intro = new QLabel(tr("Where “Download it for me” gets the cuDNN archive. Whichever you choose, the "
                               "file is checked before it is used, against NVIDIA's published checksum "
                               "wherever cuDNN Setup knows it."),
                            this);
    intro->setWordWrap(true);
    m_nvidia = new QRadioButton(tr("From &NVIDIA (developer.download.nvidia.com, no sign-in needed)"), this);
    m_nvidia->setObjectName(QStringLiteral("nvidiaSource"));
    m_other = new QRadioButton(tr("From a lab &mirror (https://…) or a folder or network share:"), this);
    m_other->setObjectName(QStringLiteral("otherSource"));
    m_location = new QLineEdit(this);
    m_location->setObjectName(QStringLiteral("sourceLocation"));
    m_location->setPlaceholderText(tr("https://mirror.example.edu/cudnn/ or \\\\server\\share\\cudnn"));
    m_location->setAccessibleName(tr("Mirror address or folder"));
    auto browse = new QPushButton(tr("&Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder that holds the archives"));
        if (!folder.isEmpty()) {
            m_location->setText(QDir::toNativeSeparators(folder));
            m_other->setChecked(true);
        }
    });
    connect(m_location, &QLineEdit::textEdited, this, [this] { m_other->setChecked(true); });
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("sourceError"));
    m_error->setWordWrap(true);
    m_error->hide();
    auto buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &DownloadSourceDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &DownloadSourceDialog::reject);

    auto locationRow = new QHBoxLayout;
    locationRow->setContentsMargins(24, 0, 0, 0);
    locationRow->addWidget(m_location, 1);
    locationRow->addWidget(browse);
    auto layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_nvidia);
    layout->addWidget(m_other);
    layout->addLayout(locationRow);
    layout->addWidget(m_error);
    layout->addStretch(1);
    layout->addWidget(buttons);

    const auto parsed = ArchiveSource::parse(source);
    const bool nvidia = source.isEmpty() || (parsed && parsed->isNvidia());
    m_nvidia->setChecked(nvidia);
    m_other->setChecked(!nvidia);
    if (!nvidia)
        m_location->setText(source);
    resize(560, sizeHint().height());
}

QString DownloadSourceDialog::source() const
{
    return m_nvidia->isChecked() ? QString() : m_location->text().trimmed();
}

void DownloadSourceDialog::accept()
{
    if (m_other->isChecked()) {
        const auto parsed = ArchiveSource::parse(source());
        if (source().isEmpty() || !parsed) {
            m_error->setText(source().isEmpty() ? tr("Type the mirror's address or the folder.")
                                                : parsed.error().message.toString() + QLatin1Char(' ') +
                                                      parsed.error().fix.toString());
            m_error->show();
            m_location->setFocus();
            return;
        }
    }
    QDialog::accept();
}

} // namespace cudnnsetup::wizard
