// The crawler as a record_source (crawl_source.h): the crawl runs on a
// thread of its own (crawl_run.h), and generate's reader thread takes its
// records from the channel between them (item_channel.h).
#include "sitemill/crawl/crawl_source.h"

#include <atomic>
#include <chrono>
#include <deque>
#include <thread>
#include <utility>

#include "crawl/crawl_cache.h"
#include "crawl/crawl_run.h"
#include "crawl/item_channel.h"
#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

using detail::crawl_item;

class crawl_reader final : public record_reader {
 public:
  crawl_reader(const crawl_options& o, normalized_url start,
               const source_context& context,
               std::unique_ptr<detail::crawl_cache> cache)
      : options_(o),
        stop_(context.stop),
        state_(context.state),
        run_(options_, std::move(start), channel_, cancel_, std::move(cache)),
        thread_([this] { run_.run(); }) {}

  ~crawl_reader() override {
    cancel_ = true;
    channel_.abandon();
    thread_.join();
  }

  bool next(input_record& out) override {
    if (taken_.empty() && !channel_.pop_all(taken_, stop_, cancel_)) {
      error_ = channel_.error();
      if (!error_.empty()) error_ = "crawl: " + error_;
      if (!noted_) {
        noted_ = true;
        note_dropped_links();
        note_script_built();
        note_rendering();
        note_cache_changed();
      }
      return false;
    }
    item_ = std::move(taken_.front());
    taken_.pop_front();
    // With --state, a page that sends no Last-Modified is dated by its
    // content, as --from-dir --lastmod content dates files: the date it
    // was first seen with this content. The state lives on this thread.
    if (state_ != nullptr && item_.skipped.empty() && item_.lastmod.empty() &&
        item_.hash) {
      auto lastmod = state_->lastmod_for(
          item_.loc, *item_.hash,
          lastmod_from_unix_time(
              std::chrono::duration_cast<std::chrono::seconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count()));
      if (!lastmod) {
        error_ = lastmod.err().message;
        return false;
      }
      item_.lastmod = std::move(*lastmod);
    }
    values_.clear();
    for (const auto& v : item_.extensions)
      values_.push_back({v.field, v.item, v.text});
    out = input_record{};
    out.line = ++number_;
    out.loc = item_.loc;
    out.lastmod = item_.lastmod;
    out.skipped = item_.skipped;
    out.extensions = values_;
    return true;
  }
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  // The frontier's bound, when the crawl met it: a warning for the summary.
  void note_dropped_links() {
    const std::uint64_t dropped = run_.dropped_links();
    if (dropped == 0) return;
    notes_.push_back(
        {0, std::to_string(dropped) +
                " links found past the crawl frontier's bound (" +
                std::to_string(options_.max_frontier_urls) + " URLs or " +
                std::to_string(options_.max_frontier_bytes) +
                " bytes of URL text waiting) were counted, not kept: their "
                "pages were neither fetched nor reported"});
  }

  // With render: the requests of pages refused, and the browser's restarts.
  void note_rendering() {
    const detail::render_counts c = run_.rendering_counts();
    if (rendering_noted_ || (c.refused == 0 && c.restarts == 0)) return;
    rendering_noted_ = true;
    std::string text = "rendering:";
    if (c.refused != 0)
      text += " " + std::to_string(c.refused) +
              " requests of rendered pages refused (another host, not a GET, "
              "or disallowed by robots.txt)";
    if (c.restarts != 0)
      text += std::string(c.refused != 0 ? ";" : "") +
              " the browser ended and was started again " +
              std::to_string(c.restarts) + " times";
    notes_.push_back({0, std::move(text)});
  }

  // With a state: the crawl remembered of its last crawl of this start URL
  // was of another kind (rendered or not, another user agent, other
  // credentials), whose pages say other things: none of it was used.
  void note_cache_changed() {
    if (run_.cache_changed().empty()) return;
    notes_.push_back(
        {0, "the crawl state " + run_.cache_path() +
                " is of a crawl with other options (" + run_.cache_changed() +
                "): its pages were fetched in full, not resumed or asked "
                "conditionally"});
  }

  // A page whose HTML is a script's shell, once per crawl: the crawl read
  // what the server sent, and a single-page app sends next to nothing.
  void note_script_built() {
    if (run_.script_built_url().empty()) return;
    notes_.push_back(
        {0,
         "looks built by scripts (its HTML has " + run_.script_built_facts() +
             "): the crawl reads the HTML the server sends, so pages that "
             "only its scripts link to were not found; rendering the pages "
             "in a browser (`render`) would read them",
         false, run_.script_built_url()});
  }

  // The run's own copy: a reader may outlive the source that opened it
  // (crawl_source(o)->open(context) in one expression), and the crawl
  // thread reads the options to its end.
  const crawl_options options_;
  const std::atomic<bool>* stop_;
  state_db* state_;
  std::atomic<bool> cancel_{false};
  detail::item_channel channel_;
  detail::crawl_run run_;
  std::thread thread_;
  std::deque<crawl_item> taken_;  // items moved out of the channel at once
  crawl_item item_;
  std::vector<extension_value> values_;
  std::uint64_t number_ = 0;
  std::string error_;
  std::vector<note> notes_;
  bool rendering_noted_ = false;
  bool noted_ = false;  // the notes of the crawl's end are made
};

class crawl_record_source final : public record_source {
 public:
  explicit crawl_record_source(crawl_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.start_url; }
  status validate(const source_context&) const override {
    normalized_url start;
    if (normalize_url(o_.start_url, start) != url_problem::ok)
      return not_a_start_url();
    if (status s = check_credentials(o_.credentials); !s) return s.err();
    if (!o_.patterns.empty()) {
      auto made = site_patterns::make(o_.patterns);
      if (!made) return made.err();
    }
    return {};
  }
  // Patterns decide what is fetched, so the crawl applies them itself.
  bool applies_patterns() const noexcept override {
    return !o_.patterns.empty();
  }
  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    normalized_url start;
    if (normalize_url(o_.start_url, start) != url_problem::ok)
      return not_a_start_url();
    // With --state, the crawl remembers its pages beside the state
    // database (crawl_cache.h): to resume, and to ask conditionally.
    std::unique_ptr<detail::crawl_cache> cache;
    if (context.state != nullptr) {
      auto opened = detail::crawl_cache::open(context.state->path() + "-crawl");
      if (!opened) return opened.err();
      cache = std::move(*opened);
    }
    return std::unique_ptr<record_reader>(std::make_unique<crawl_reader>(
        o_, std::move(start), context, std::move(cache)));
  }

 private:
  error not_a_start_url() const {
    return {"`start_url` " + o_.start_url + ": not an absolute http(s) URL",
            "start_url"};
  }

  crawl_options o_;
};

}  // namespace

std::shared_ptr<const record_source> crawl_source(crawl_options options) {
  return std::make_shared<crawl_record_source>(std::move(options));
}

}  // namespace sitemill
