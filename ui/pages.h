// The studio's six pages, in sidebar order, and the placeholder each one shows until its
// real page lands. Page identity lives here so the sidebar, the View menu and the settings
// agree on names, order and keys.
#pragma once

#include <QCoreApplication>
#include <QIcon>
#include <QString>
#include <QWidget>

#include <array>
#include <optional>

class QStyle;

namespace ts::ui {

enum class Page { Datasets, Model, Hyperparameters, Train, Runs, Learn };

inline constexpr std::array<Page, 6> kAllPages{Page::Datasets, Page::Model, Page::Hyperparameters, Page::Train,
                                               Page::Runs, Page::Learn};

class PageInfo {
    Q_DECLARE_TR_FUNCTIONS(PageInfo)
public:
    static QString title(Page page);
    static QString summary(Page page);
    // Stable, untranslated name: settings keys and object names, so reordering is harmless.
    static QString key(Page page);
    static std::optional<Page> fromKey(const QString& key);
    static QIcon icon(Page page, const QStyle* style);
};

// A named, empty place: the page's title and one sentence on what it will hold.
class PlaceholderPage : public QWidget {
    Q_OBJECT
public:
    explicit PlaceholderPage(Page page, QWidget* parent = nullptr);
    Page page() const { return m_page; }

private:
    Page m_page;
};

}  // namespace ts::ui
