// File > Open Dataset… and File > Open Dataset Folder…: Qt's own (non-native) file dialog
// that also takes a folder, since most datasets are folders. A dataset folder selected, or
// nothing selected inside one, opens that folder when Open is pressed (a plain QFileDialog in
// file mode would step into it or do nothing); any other folder is stepped into as usual. The
// label under the file list names the layouts an image folder may have.
#pragma once

#include <QFileDialog>

class QLabel;

namespace ts::ui {

class DatasetOpenDialog : public QFileDialog {
    Q_OBJECT
public:
    enum class Mode { FilesAndFolders, FoldersOnly };
    explicit DatasetOpenDialog(Mode mode, QWidget* parent = nullptr);

    // What Open opens now: the selected file or dataset folder, else the folder shown.
    QString pathToOpen() const;
    QPushButton* openButton() const;
    QLabel* layoutsLabel() const { return m_layouts; }

signals:
    void datasetChosen(const QString& path);

public slots:
    void accept() override;

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refreshOpenButton();  // after Qt's own update: Open with nothing selected opens the folder shown
    static QString splitRoot(const QString& path);

    QLabel* m_layouts = nullptr;
};

}  // namespace ts::ui
