#include "generate/html_view.h"

#include <algorithm>
#include <chrono>
#include <optional>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "sitemill/walk/walker.h"
#include "sitemill/write/html_view.h"
#include "sitemill/write/sink.h"

namespace sitemill::detail {
namespace {

// The pages of one sitemap, filled as the parser hands over its entries.
class page_builder final : public walk_observer, public parse_handler {
 public:
  page_builder(publisher& pub, const std::string& name,
               const published_file& sitemap, std::size_t per_page,
               std::size_t& page_number, std::vector<staged_file>& staged,
               html_view_file& listed)
      : pub_(pub),
        name_(name),
        sitemap_(sitemap),
        per_page_(per_page),
        page_number_(page_number),
        staged_(staged),
        listed_(listed) {}

  parse_handler& on_open(const walk_document&) override { return *this; }
  void on_failed(const walk_document&, const walk_skip& why) override {
    fail("cannot read " + sitemap_.path + " back: " + why.message);
  }
  void on_skip(const walk_document&, const walk_skip& why) override {
    fail("cannot read " + sitemap_.path + " back: " + why.message);
  }

  void on_entry(const parsed_entry& e) override {
    if (!error_.empty()) return;
    if (rows_ == 0) start_page();
    append_html_row(
        page_, ++row_,
        {e.loc.text, e.lastmod.text, e.changefreq.text, e.priority.text});
    if (++rows_ == per_page_) end_page();
  }

  // After the walk: the last page, and what went wrong.
  status finish() {
    if (error_.empty() && rows_ > 0) end_page();
    if (error_.empty() && row_ != sitemap_.urls)
      fail(sitemap_.path + " read back with " + std::to_string(row_) +
           " URLs, " + std::to_string(sitemap_.urls) + " were written");
    if (!error_.empty()) return error{error_};
    return {};
  }

 private:
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
  }

  void start_page() {
    page_.clear();
    html_view_page p;
    p.front_page = front_;
    p.sitemap = sitemap_.path;
    p.first = row_ + 1;
    p.last = std::min<std::uint64_t>(row_ + per_page_, sitemap_.urls);
    p.sitemap_urls = sitemap_.urls;
    append_html_page_start(page_, p);
  }

  void end_page() {
    append_html_page_end(page_);
    rows_ = 0;
    const std::uint64_t digest = XXH3_64bits(page_.data(), page_.size());
    auto staged = stage_file(
        pub_, "view",
        child_file_name(name_ + "-html", ++page_number_, digest, ".html"),
        document_type::html, page_);
    if (!staged) return fail(staged.err().message);
    listed_.pages.push_back(staged->file.path);
    staged_.push_back(std::move(*staged));
  }

  publisher& pub_;
  const std::string& name_;
  const std::string front_ = name_ + ".html";
  const published_file& sitemap_;
  const std::size_t per_page_;
  std::size_t& page_number_;
  std::vector<staged_file>& staged_;
  html_view_file& listed_;
  std::string page_;
  std::size_t rows_ = 0;   // on the current page
  std::uint64_t row_ = 0;  // in the sitemap
  std::string error_;
};

}  // namespace

status stage_html_view(publisher& pub, const std::string& name,
                       assembled_set& set, std::span<const std::string> newest,
                       std::size_t per_page) {
  if (per_page == 0)
    return error{"`html_page_urls` must be at least 1", "html_page_urls"};
  std::vector<staged_file> staged;
  std::vector<html_view_file> listed;
  std::size_t page_number = 0;
  std::size_t sitemap = 0;
  for (const staged_file& f : set.files) {
    if (f.file.type != document_type::urlset &&
        f.file.type != document_type::text)
      continue;
    html_view_file& file = listed.emplace_back();
    file.path = f.file.path;
    file.urls = f.file.urls;
    if (sitemap < newest.size()) file.newest = newest[sitemap];
    ++sitemap;
    page_builder pages(pub, name, f.file, per_page, page_number, staged, file);
    walk_options o;
    o.follow_indexes = false;
    o.parse.schema_checks = false;
    o.max_documents = 1;
    o.max_time = std::chrono::hours(24 * 365);  // a read of our own file
    sitemap_walker walker(o, pages);
    walker.walk(f.temp_path);
    if (status s = pages.finish(); !s) return s;
  }
  std::string front;
  append_html_front_page(front, set.entry, listed);
  auto page = stage_file(pub, "view", name + ".html", document_type::html, front);
  if (!page) return page.err();
  page->fixed_name = true;
  staged.push_back(std::move(*page));
  for (auto& s : staged) set.files.push_back(std::move(s));
  return {};
}

}  // namespace sitemill::detail
