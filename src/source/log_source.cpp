// --from-log: the pages an access log shows the site served.
//
// Each log is read as a txt list (the one line reader, gzip and stdin
// included), each line split by parse_log_line() and judged by
// judge_request(). A page is listed at its first request; the fingerprint
// of every page listed (url_set, or with popularity the count table) is
// all that is kept, so memory follows the number of pages, not requests.
#include "sitemill/source/log_source.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "detail/fingerprint_table.h"
#include "detail/text.h"
#include "detail/url_set.h"
#include "sitemill/url/url.h"
#include "source/log_line.h"

namespace sitemill {
namespace {

using detail::log_verdict;

constexpr std::string_view stdin_name = "<stdin>";

// Request counts by page, sharded as url_set is, so that a growth copies a
// 256th of the table at most.
class page_counts {
 public:
  void add(detail::url_set::key k) {
    auto& table = shards_[k.shard];
    std::uint32_t& n = table.payload(table.insert(k.fingerprint).first);
    if (n < std::numeric_limits<std::uint32_t>::max()) ++n;
    max_ = std::max(max_, n);
  }
  // The slot's count, to be taken once: a later call for the same page
  // gives 0. 0 too for a page the counting pass did not see.
  std::uint32_t take(detail::url_set::key k) {
    auto& table = shards_[k.shard];
    const std::size_t slot = table.find(k.fingerprint);
    if (slot == table.npos) return 0;
    return std::exchange(table.payload(slot), 0);
  }
  std::uint32_t max() const noexcept { return max_; }

 private:
  std::array<detail::fingerprint_table<std::uint32_t>, 256> shards_;
  std::uint32_t max_ = 0;
};

// What one log's lines came to, for its note.
struct log_tally {
  std::uint64_t lines = 0;  // lines read (blank ones are not lines)
  std::uint64_t bad = 0;    // not log lines
  std::array<std::uint64_t, detail::log_verdict_count> by_verdict{};
  std::uint64_t pages = 0;  // pages first listed from this log
};

std::string summary(const log_tally& t, std::string_view file, bool name_file) {
  using detail::with_commas;
  const auto n = [&](log_verdict v) {
    return t.by_verdict[static_cast<std::size_t>(v)];
  };
  std::string s;
  if (name_file) {
    s += file;
    s += ": ";
  }
  s += with_commas(t.lines) + " lines; pages listed: " + with_commas(t.pages) +
       " (from " + with_commas(n(log_verdict::page)) + " requests)";
  if (t.bad > 0) s += "; not log lines: " + with_commas(t.bad);
  static constexpr std::pair<log_verdict, std::string_view> reasons[] = {
      {log_verdict::method, "not a GET or HEAD of a path"},
      {log_verdict::status, "answered other than 2xx or 304"},
      {log_verdict::host, "for another host"},
      {log_verdict::outside, "outside the base URL's directory"},
      {log_verdict::bot, "by bots"},
      {log_verdict::asset, "of assets"},
      {log_verdict::query, "with a query string (see `keep_query`)"},
  };
  bool first = true;
  for (const auto& [v, why] : reasons) {
    if (n(v) == 0) continue;
    s += first ? "; left out: " : ", ";
    first = false;
    s += with_commas(n(v));
    s += ' ';
    s += why;
  }
  return s;
}

class log_reader final : public record_reader {
 public:
  /// `bases`: the run's first base, then its others (never empty).
  log_reader(const log_source_options& o, std::vector<normalized_url> bases,
             const std::atomic<bool>* stop)
      : o_(o), bases_(std::move(bases)), stop_(stop) {
    if (o_.priority_from_popularity) {
      counts_ = std::make_unique<page_counts>();
      line_limit_.resize(o_.paths.size());
    } else {
      listed_ = std::make_unique<detail::url_set>();
    }
  }

  bool next(input_record& out) override {
    if (counts_ && !counted_) {
      counted_ = true;
      if (!count_pages()) return false;
    }
    while (true) {
      if (!lines_ && !open_next()) return false;
      input_record line;
      if (lines_->next(line) && !past_limit(line.line)) {
        if (take_line(line, out)) return true;
        continue;
      }
      if (!lines_->error().empty()) {
        error_ = lines_->error();
        return false;
      }
      // A log that left nothing out needs no explaining.
      if (tally_.bad +
              tally_.by_verdict[static_cast<std::size_t>(log_verdict::page)] <
          tally_.lines)
        notes_.push_back(
            {0, summary(tally_, current_name(), o_.paths.size() > 1)});
      lines_.reset();
    }
  }

  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  std::string_view current_name() const {
    const std::string& p = o_.paths[file_ - 1];
    return p == "-" ? stdin_name : std::string_view(p);
  }

  // A record names its log when the source reads several; otherwise the
  // source's name is the log's.
  std::string_view source_name() const {
    return o_.paths.size() > 1 ? current_name() : std::string_view{};
  }

  result<std::unique_ptr<record_reader>> open_log(std::size_t i) const {
    reader_options r;
    r.format = input_format::txt;
    r.stop = stop_;
    return record_reader::open(o_.paths[i], r);
  }

  bool open_next() {
    if (file_ == o_.paths.size()) return false;
    auto opened = open_log(file_++);
    if (!opened) {
      error_ = opened.err().message;
      return false;
    }
    lines_ = std::move(*opened);
    tally_ = {};
    return true;
  }

  // The listing pass reads no further than the counting pass did, so a log
  // written to in between lists exactly the pages that were counted.
  bool past_limit(std::uint64_t line) const {
    return counts_ && line > line_limit_[file_ - 1];
  }

  // Judges one line; true when it is a record for `out` (a page listed for
  // the first time, or a line that is not a log line).
  bool take_line(const input_record& in, input_record& out) {
    ++tally_.lines;
    detail::log_line l;
    std::string_view why = in.problem;
    if (why.empty()) why = detail::parse_log_line(in.loc, l);
    if (!why.empty()) {
      ++tally_.bad;
      out = input_record{};
      out.line = in.line;
      out.source = source_name();
      problem_ =
          "not an access log line in the combined, common or "
          "vhost_combined format: ";
      problem_ += why;
      if (in.problem.empty()) {
        problem_ += ": ";
        problem_ += detail::quoted_printable(in.loc, 80);
      }
      out.problem = problem_;
      return true;
    }
    const normalized_url& base = base_for(l);
    const log_verdict v = detail::judge_request(l, scope_of(base));
    ++tally_.by_verdict[static_cast<std::size_t>(v)];
    if (v != log_verdict::page) return false;
    loc_.assign(base.origin());
    loc_ += page_target(l);
    const detail::url_set::key key = detail::url_set::hash(loc_);
    std::uint32_t count = 0;
    if (counts_) {
      count = counts_->take(key);
      if (count == 0) return false;
    } else if (!listed_->insert(key)) {
      return false;
    }
    ++tally_.pages;
    out = input_record{};
    out.line = in.line;
    out.source = source_name();
    out.loc = loc_;
    if (counts_) {
      const int tenths = popularity_priority(count, counts_->max());
      priority_ = tenths == 10 ? "1.0" : "0." + std::to_string(tenths);
      out.priority = priority_;
    }
    return true;
  }

  // The base a request is judged against: of those on its host (the
  // vhost's, or the first base's for a log that names none), the deepest
  // whose directory holds its path, else the first on its host (whose
  // verdict is then "outside"); a host no base is on gets the first base,
  // whose verdict is then "host".
  const normalized_url& base_for(const detail::log_line& l) const {
    if (bases_.size() == 1) return bases_.front();
    const std::string_view host =
        l.vhost.empty() ? bases_.front().host() : detail::vhost_host(l.vhost);
    const std::string_view path = l.target.substr(0, l.target.find('?'));
    const normalized_url* best = nullptr;
    const normalized_url* on_host = nullptr;
    for (const normalized_url& b : bases_) {
      if (!detail::iequals(b.host(), host)) continue;
      if (on_host == nullptr) on_host = &b;
      if (path.starts_with(b.path()) &&
          (best == nullptr || b.path().size() > best->path().size()))
        best = &b;
    }
    return best ? *best : on_host ? *on_host : bases_.front();
  }

  detail::log_scope scope_of(const normalized_url& base) const {
    return {base.host(), base.path(), o_.keep_query};
  }

  std::string_view page_target(const detail::log_line& l) const {
    return o_.keep_query ? l.target : l.target.substr(0, l.target.find('?'));
  }

  // The first pass of `priority_from_popularity`: every page's requests.
  bool count_pages() {
    for (std::size_t i = 0; i < o_.paths.size(); ++i) {
      auto opened = open_log(i);
      if (!opened) {
        error_ = opened.err().message;
        return false;
      }
      input_record in;
      detail::log_line l;
      while ((*opened)->next(in)) {
        line_limit_[i] = in.line;
        if (!in.problem.empty() || !detail::parse_log_line(in.loc, l).empty())
          continue;
        const normalized_url& base = base_for(l);
        if (detail::judge_request(l, scope_of(base)) != log_verdict::page)
          continue;
        loc_.assign(base.origin());
        loc_ += page_target(l);
        counts_->add(detail::url_set::hash(loc_));
      }
      if (!(*opened)->error().empty()) {
        error_ = (*opened)->error();
        return false;
      }
    }
    return true;
  }

  const log_source_options o_;
  std::vector<normalized_url> bases_;
  const std::atomic<bool>* stop_;
  std::unique_ptr<detail::url_set> listed_;  // without popularity
  std::unique_ptr<page_counts> counts_;      // with popularity
  std::vector<std::uint64_t> line_limit_;    // with popularity, per log
  bool counted_ = false;
  std::size_t file_ = 0;  // logs opened so far
  std::unique_ptr<record_reader> lines_;
  log_tally tally_;
  std::string loc_;  // the page's URL: its base's origin, then its target
  std::string priority_, problem_, error_;
  std::vector<note> notes_;
};

class log_files final : public record_source {
 public:
  explicit log_files(log_source_options o) : o_(std::move(o)) {}

  std::string name() const override {
    if (o_.paths.empty()) return "access logs";
    std::string first =
        o_.paths[0] == "-" ? std::string(stdin_name) : o_.paths[0];
    if (o_.paths.size() == 1) return first;
    return first + " and " + std::to_string(o_.paths.size() - 1) +
           " more access logs";
  }

  status validate(const source_context&) const override {
    if (o_.paths.empty()) return error{"no access log to read", "paths"};
    std::size_t stdins = 0;
    for (const std::string& p : o_.paths) {
      if (p == "-") {
        ++stdins;
        continue;
      }
      if (::access(p.c_str(), R_OK) != 0)
        return error{"cannot read access log " + p + ": " +
                     std::strerror(errno)};
    }
    if (stdins > 1) return error{"stdin (-) can be read once", "paths"};
    if (stdins > 0 && o_.priority_from_popularity)
      return error{
          "`priority_from_popularity` reads the logs twice, and "
          "stdin (-) can be read once: name the log files",
          "priority_from_popularity"};
    return {};
  }

  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    std::vector<normalized_url> bases(1 + context.more_base_urls.size());
    if (normalize_url(context.base_url, bases[0]) != url_problem::ok)
      return error{"the base URL is not an absolute http(s) URL", "base_url"};
    for (std::size_t i = 0; i < context.more_base_urls.size(); ++i)
      if (normalize_url(context.more_base_urls[i], bases[i + 1]) !=
          url_problem::ok)
        return error{"a base URL is not an absolute http(s) URL",
                     "more_base_urls"};
    return std::unique_ptr<record_reader>(
        std::make_unique<log_reader>(o_, std::move(bases), context.stop));
  }

 private:
  log_source_options o_;
};

}  // namespace

int popularity_priority(std::uint64_t count, std::uint64_t max_count) noexcept {
  if (max_count <= 1 || count >= max_count) return 10;
  const double share = std::log1p(static_cast<double>(count)) /
                       std::log1p(static_cast<double>(max_count));
  const int tenths = static_cast<int>(std::lround(1.0 + 9.0 * share));
  return std::clamp(tenths, 1, 10);
}

std::shared_ptr<const record_source> log_source(log_source_options options) {
  return std::make_shared<log_files>(std::move(options));
}

}  // namespace sitemill
