// --from-sitemap: existing sitemaps read through the one sitemap_parser.
//
// The parser pushes entries as bytes arrive (from a file or a libcurl
// callback) while a record_reader is pulled. A producer thread runs the
// push side and hands owned records over a small bounded queue, so memory
// stays flat however large the sitemaps are.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_set>

#include "sitemill/date/dates.h"
#include "sitemill/source/sitemap_source.h"
#include "sitemill/url/url.h"

namespace sitemill {
namespace {

// Records waiting for the consumer; enough to keep both sides busy.
constexpr std::size_t queue_capacity = 4'096;

struct owned_record {
  std::string source, loc, lastmod, changefreq, priority, problem;
  std::uint64_t line = 0;
};

std::string directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

// The name a child URL's file has beside a local index: the last segment of
// its path, percent-decoded ("a%20b.xml" is the file "a b.xml"). Empty when
// the URL does not normalise, names a directory, or decodes to a name that
// would reach another directory ("..%2Fx").
std::string file_name_of(std::string_view url) {
  normalized_url u;
  if (normalize_url(url, u) != url_problem::ok) return {};
  const std::string_view path = u.path();
  std::string name = percent_decode(path.substr(path.rfind('/') + 1));
  if (name == "." || name == ".." ||
      name.find_first_of(std::string_view("/\0", 2)) != std::string::npos)
    return {};
  return name;
}

class collecting_handler final : public parse_handler {
 public:
  using sink = std::function<void(owned_record&&)>;
  collecting_handler(std::string source, const sitemap_source_options& o,
                     sink emit)
      : source_(std::move(source)), o_(o), emit_(std::move(emit)) {}

  void on_document(document_kind kind) override { kind_ = kind; }

  void on_entry(const parsed_entry& e) override {
    if (kind_ == document_kind::sitemapindex) {
      if (e.loc.present && !e.loc.text.empty())
        children_.emplace_back(e.loc.text, e.line);
      return;
    }
    owned_record r;
    r.source = source_;
    r.line = e.line;
    r.loc = std::string(e.loc.text);
    if (o_.rewrite_base && r.loc.starts_with(o_.rewrite_base->first))
      r.loc =
          o_.rewrite_base->second + r.loc.substr(o_.rewrite_base->first.size());
    if (e.lastmod.present) {
      r.lastmod = std::string(e.lastmod.text);
      // Feeds carry RFC 822 (RSS) or RFC 3339 (Atom) dates; the entry stage
      // reads W3C datetimes, so convert what can be converted. What cannot
      // is passed on as written, for the entry stage to report; check warns
      // feed-date-invalid for exactly those dates.
      if (kind_ == document_kind::rss || kind_ == document_kind::atom)
        if (auto w3c = feed_date_to_w3c(r.lastmod)) r.lastmod = *w3c;
    }
    if (e.changefreq.present) r.changefreq = std::string(e.changefreq.text);
    if (e.priority.present) r.priority = std::string(e.priority.text);
    emit_(std::move(r));
  }

  void on_diagnostic(const diagnostic& d) override {
    if (d.level == severity::error && first_error_.empty())
      first_error_ = "line " + std::to_string(d.line) + ": " + d.message;
  }

  document_kind kind() const { return kind_; }
  const std::vector<std::pair<std::string, std::uint64_t>>& children() const {
    return children_;
  }
  const std::string& first_error() const { return first_error_; }

 private:
  std::string source_;
  const sitemap_source_options& o_;
  sink emit_;
  document_kind kind_ = document_kind::unknown;
  std::vector<std::pair<std::string, std::uint64_t>> children_;
  std::string first_error_;
};

class sitemap_reader final : public record_reader {
 public:
  explicit sitemap_reader(sitemap_source_options o) : o_(std::move(o)) {
    o_.parse.schema_checks = false;
    producer_ = std::thread([this] { produce(); });
  }

  ~sitemap_reader() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    space_.notify_all();
    producer_.join();
  }

  bool next(input_record& out) override {
    std::unique_lock lock(mu_);
    data_.wait(lock, [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) return false;
    current_ = std::move(queue_.front());
    queue_.pop_front();
    space_.notify_one();
    out = input_record{};
    out.line = current_.line;
    out.loc = current_.loc;
    out.lastmod = current_.lastmod;
    out.changefreq = current_.changefreq;
    out.priority = current_.priority;
    out.problem = current_.problem;
    out.source = current_.source;
    return true;
  }

  // Read only after next() returned false, when the producer has finished.
  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  struct document {
    std::string location;
    std::uint32_t depth = 0;
    std::string parent;  // the index that listed it, for messages
    std::uint64_t parent_line = 0;
  };

  bool push(owned_record&& r) {
    std::unique_lock lock(mu_);
    space_.wait(lock, [&] { return stop_ || queue_.size() < queue_capacity; });
    if (stop_) return false;
    queue_.push_back(std::move(r));
    data_.notify_one();
    return true;
  }

  void finish(std::string why) {
    std::lock_guard lock(mu_);
    error_ = std::move(why);
    done_ = true;
    data_.notify_all();
  }

  bool stopped() {
    std::lock_guard lock(mu_);
    return stop_;
  }

  // Feeds one local file to the parser in blocks.
  status read_local(const std::string& path, sitemap_parser& parser) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
      return sitemill::error{"cannot open " + path + ": " +
                             std::strerror(errno)};
    std::array<char, 1 << 16> buf;
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0)
      if (!parser.feed(buf.data(), n)) break;
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) return sitemill::error{"cannot read " + path};
    return {};
  }

  status read_remote(const std::string& url, sitemap_parser& parser) {
    if (!http_) http_ = std::make_unique<http_client>(o_.http);
    http_request req;
    req.url = url;
    auto res = http_->send(req, [&](const char* data, std::size_t size) {
      parser.feed(data, size);
      return !stopped();
    });
    if (!res) return res.err();
    if (res->status != 200)
      return sitemill::error{url + ": HTTP status " +
                             std::to_string(res->status)};
    return {};
  }

  // Where a child listed by an index is read from: next to a local index
  // when a file of that name is there, otherwise from its URL.
  std::string child_location(const document& index, const std::string& loc) {
    if (has_http_scheme(index.location) || !has_http_scheme(loc)) {
      if (!has_http_scheme(loc) && !has_http_scheme(index.location))
        return directory_of(index.location) + "/" + loc;
      return loc;
    }
    const std::string name = file_name_of(loc);
    if (name.empty()) return loc;
    std::string local = directory_of(index.location) + "/" + name;
    struct stat st;
    if (::stat(local.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return local;
    return loc;
  }

  void produce() {
    std::deque<document> todo{{o_.location, 0, {}, 0}};
    std::unordered_set<std::string> visited;
    std::uint64_t documents = 0;
    bool top = true;
    while (!todo.empty() && !stopped()) {
      document d = std::move(todo.front());
      todo.pop_front();
      auto problem = [&](std::string why) {
        owned_record r;
        r.source = d.parent;
        r.line = d.parent_line;
        r.problem = std::move(why);
        push(std::move(r));
      };
      if (!visited.insert(d.location).second) {
        problem("sitemap " + d.location +
                " is listed again (an index cycle); read once");
        continue;
      }
      if (++documents > o_.max_documents) {
        problem("more than " + std::to_string(o_.max_documents) +
                " sitemaps; " + d.location + " and the rest were not read");
        break;
      }
      collecting_handler handler(
          d.location, o_, [this](owned_record&& r) { push(std::move(r)); });
      sitemap_parser parser(handler, o_.parse);
      status read = has_http_scheme(d.location)
                        ? read_remote(d.location, parser)
                        : read_local(d.location, parser);
      parse_summary summary = parser.finish();
      if (!read) {
        if (top) return finish(read.message());
        problem("cannot read sitemap " + d.location + ": " + read.message());
        continue;
      }
      top = false;
      if (!summary.complete) {
        std::lock_guard lock(mu_);
        notes_.push_back({0, d.location + ": reading stopped at " +
                                 handler.first_error() + "; the " +
                                 std::to_string(summary.entries) +
                                 " entries before it were read"});
      }
      if (handler.kind() != document_kind::sitemapindex) continue;
      // Children go first, in the order the index lists them, so records
      // come out in document order.
      std::vector<document> children;
      for (const auto& [loc, line] : handler.children()) {
        if (d.depth + 1 > o_.max_depth) {
          owned_record r;
          r.source = d.location;
          r.line = line;
          r.problem = "index nested deeper than " +
                      std::to_string(o_.max_depth) + "; " + loc + " not read";
          push(std::move(r));
          continue;
        }
        children.push_back(
            {child_location(d, loc), d.depth + 1, d.location, line});
      }
      todo.insert(todo.begin(), children.begin(), children.end());
    }
    finish({});
  }

  sitemap_source_options o_;
  std::unique_ptr<http_client> http_;
  std::thread producer_;
  std::mutex mu_;
  std::condition_variable data_, space_;
  std::deque<owned_record> queue_;
  owned_record current_;
  bool done_ = false;
  bool stop_ = false;
  std::string error_;
  std::vector<note> notes_;
};

}  // namespace

result<std::unique_ptr<record_reader>> open_sitemap_source(
    const sitemap_source_options& options) {
  if (options.location.empty())
    return sitemill::error{"`location` needs a path or URL", "location"};
  if (!has_http_scheme(options.location)) {
    struct stat st;
    if (::stat(options.location.c_str(), &st) != 0)
      return sitemill::error{"cannot open " + options.location + ": " +
                             std::strerror(errno)};
  }
  return std::unique_ptr<record_reader>(
      std::make_unique<sitemap_reader>(options));
}

namespace {

class sitemap_location final : public record_source {
 public:
  explicit sitemap_location(sitemap_source_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.location; }
  result<std::unique_ptr<record_reader>> open(
      const source_context&) const override {
    return open_sitemap_source(o_);
  }

 private:
  sitemap_source_options o_;
};

}  // namespace

std::shared_ptr<const record_source> sitemap_source(
    sitemap_source_options options) {
  return std::make_shared<sitemap_location>(std::move(options));
}

}  // namespace sitemill
