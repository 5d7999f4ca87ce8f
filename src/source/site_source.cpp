// The directory source: a depth-first walk in byte order, one record per
// listed file.
#include "sitemill/source/site_source.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "detail/text.h"
#include "detail/utf8.h"
#include "html/page_links.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/html/html_page.h"
#include "sitemill/limits.h"
#include "sitemill/publish/publish.h"
#include "sitemill/robots/robots_rules.h"
#include "sitemill/source/state_db.h"
#include "sitemill/url/url.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

// Google reads the first 15 MB of a page; a page many times that size is a
// mistake, and reading it whole would cost memory for nothing.
constexpr std::size_t max_html_bytes = std::size_t{64} << 20;
// One byte past the limit parse_robots_rules() reads, so that it can tell a
// file that ends at the limit from one the limit cuts.
constexpr std::size_t max_robots_bytes = max_robots_txt_bytes + 1;

bool iends_with(std::string_view s, std::string_view suffix) noexcept {
  if (s.size() < suffix.size()) return false;
  s = s.substr(s.size() - suffix.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

bool is_html_name(std::string_view name) noexcept {
  return iends_with(name, ".html") || iends_with(name, ".htm") ||
         iends_with(name, ".xhtml");
}

// The name without its .html or .htm (any case); the name itself otherwise.
std::string_view without_html_extension(std::string_view name) noexcept {
  if (iends_with(name, ".html")) return name.substr(0, name.size() - 5);
  if (iends_with(name, ".htm")) return name.substr(0, name.size() - 4);
  return name;
}

// An HTTP error status as a page name: three digits, 400 to 599.
bool is_error_status(std::string_view stem) noexcept {
  return stem.size() == 3 && (stem[0] == '4' || stem[0] == '5') &&
         stem[1] >= '0' && stem[1] <= '9' && stem[2] >= '0' && stem[2] <= '9';
}

std::string describe_errno(int err) { return std::strerror(err); }

void append_escape(std::string& out, unsigned char c) {
  constexpr char digits[] = "0123456789ABCDEF";
  out.push_back('%');
  out.push_back(digits[c >> 4]);
  out.push_back(digits[c & 15]);
}

// Appends a relative file path as URL path text. UTF-8 stays as it is (the
// normaliser encodes it), but what the normaliser would read as URL syntax
// ('%', '?', '#') or refuse (controls, bytes that are not UTF-8) is
// percent-encoded here, so every file name gets a URL.
void append_url_path(std::string& out, std::string_view path) {
  for (std::size_t i = 0; i < path.size();) {
    const auto c = static_cast<unsigned char>(path[i]);
    if (c == '%' || c == '?' || c == '#' || c < 0x20 || c == 0x7F) {
      append_escape(out, c);
      ++i;
      continue;
    }
    const std::size_t n = detail::utf8_sequence_length(path, i);
    if (n == 0) {
      append_escape(out, c);
      ++i;
      continue;
    }
    out.append(path.substr(i, n));
    i += n;
  }
}

// Days since 1970-01-01 to a civil date (Howard Hinnant's civil_from_days).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m,
                     unsigned& d) noexcept {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

struct entry {
  std::string key;  // the name, with '/' appended for a directory: sorts
                    // like the full path would
  bool dir = false;
  std::string_view name() const noexcept {
    return dir ? std::string_view(key).substr(0, key.size() - 1)
               : std::string_view(key);
  }
};

// One directory on the current path of the walk.
struct frame {
  std::string rel;  // "" for the root, else "a/b/"
  std::vector<entry> entries;
  std::size_t next = 0;
  dev_t dev = 0;
  ino_t ino = 0;
  std::vector<std::string> outputs;  // sorted names sitemill published here
  bool has_bookkeeping = false;      // it holds a .sitemill/ directory
};

// Feeds the file at `path` to `take(data, size)` in 64 KiB blocks until the
// end or until `take` returns false. False with errno set on failure.
template <typename Take>
bool read_blocks(const std::string& path, Take&& take) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return false;
  char buf[65536];
  for (;;) {
    const ::ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      errno = err;
      return false;
    }
    if (n == 0 || !take(buf, static_cast<std::size_t>(n))) break;
  }
  ::close(fd);
  return true;
}

// Reads up to `limit` bytes of the file at `path`. False with errno set on
// failure.
bool read_file(const std::string& path, std::string& out, std::size_t limit,
               bool* too_large = nullptr) {
  out.clear();
  return read_blocks(path, [&](const char* data, std::size_t got) {
    if (out.size() + got > limit) {
      out.append(data, limit - out.size());
      if (too_large != nullptr) *too_large = true;
      return false;
    }
    out.append(data, got);
    return true;
  });
}

// XXH3-128 of a file's bytes, read in blocks so any size works.
bool hash_file(const std::string& path, content_hash& out) {
  XXH3_state_t state;
  XXH3_128bits_reset(&state);
  if (!read_blocks(path, [&](const char* data, std::size_t got) {
        XXH3_128bits_update(&state, data, got);
        return true;
      })) {
    return false;
  }
  const XXH128_hash_t h = XXH3_128bits_digest(&state);
  out = content_hash{h.high64, h.low64};
  return true;
}

class site_reader final : public record_reader {
 public:
  site_reader(const site_source_options& options, url_normalizer normalizer,
              site_patterns patterns, std::string root, std::string root_real)
      : options_(options),
        normalizer_(std::move(normalizer)),
        patterns_(std::move(patterns)),
        root_(std::move(root)),
        root_real_(std::move(root_real)) {}

  // Reads robots.txt and lists the root. Fails when the root cannot be
  // listed.
  status start() {
    struct stat st {};
    if (::stat(root_.c_str(), &st) != 0) {
      return sitemill::error{"cannot read site directory " + options_.root +
                             ": " + describe_errno(errno)};
    }
    if (!S_ISDIR(st.st_mode)) {
      return sitemill::error{"site directory " + options_.root +
                             " is not a directory"};
    }
    if (options_.rules.honour_robots) read_robots();
    // Where the sets published in the root keep their bookkeeping; sets in
    // its subdirectories keep theirs below it (a run with several bases)
    // or beside their own directory (found while listing its parent).
    root_book_ = options_.manifest_dir.empty() ? bookkeeping_dir_of(root_)
                                               : options_.manifest_dir;
    struct stat book {};
    root_book_exists_ = !root_book_.empty() &&
                        ::stat(root_book_.c_str(), &book) == 0 &&
                        S_ISDIR(book.st_mode);
    if (std::string problem = push_directory("", st); !problem.empty()) {
      return sitemill::error{"cannot read site directory " + options_.root +
                             ": " + problem};
    }
    return {};
  }

  bool next(input_record& out) override {
    while (!stack_.empty()) {
      frame& f = stack_.back();
      if (f.next == f.entries.size()) {
        stack_.pop_back();
        continue;
      }
      // Copies: visiting a directory pushes a frame, moving `f`.
      const std::string name(f.entries[f.next++].name());
      const std::string rel = f.rel + name;
      if (visit(rel, name, out)) return true;
      if (!error_.empty()) return false;
    }
    if (!finished_) {
      finished_ = true;
      if (undated_ != 0) {
        notes_.push_back(note{
            0, with_count(undated_) +
                   " no date (article:modified_time, JSON-LD dateModified, "
                   "...); listed without a lastmod (give `state` to date "
                   "them by content)"});
      }
    }
    return false;
  }

  const std::string& error() const noexcept override { return error_; }
  const std::vector<note>& notes() const noexcept override { return notes_; }

 private:
  std::string path_of(std::string_view rel) const {
    std::string p = root_;
    if (!rel.empty()) {
      if (p.empty() || p.back() != '/') p.push_back('/');
      p.append(rel);
    }
    return p;
  }

  bool inside_root(std::string_view real) const noexcept {
    if (root_real_ == "/") return true;
    return real == root_real_ ||
           (real.starts_with(root_real_) && real[root_real_.size()] == '/');
  }

  void read_robots() {
    const std::string path = path_of("robots.txt");
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return;  // no robots.txt: no rules
    if (S_ISLNK(st.st_mode)) {
      char* real = ::realpath(path.c_str(), nullptr);
      const bool inside = real != nullptr && inside_root(real);
      std::free(real);
      if (!inside) return;
    }
    std::string text;
    if (!read_file(path, text, max_robots_bytes)) {
      notes_.push_back(note{0, "cannot read robots.txt (" +
                                   describe_errno(errno) +
                                   "); its rules are not applied"});
      return;
    }
    robots_ = parse_robots_rules(text);
  }

  // Lists directory `rel` ("" or "a/b/") and pushes it. Returns the
  // reason when it cannot be read.
  std::string push_directory(std::string rel, const struct stat& st) {
    const std::string dir_path = path_of(rel);
    DIR* dir = ::opendir(dir_path.c_str());
    if (dir == nullptr) return describe_errno(errno);
    frame f;
    f.rel = std::move(rel);
    f.dev = st.st_dev;
    f.ino = st.st_ino;
    errno = 0;
    while (const dirent* d = ::readdir(dir)) {
      const std::string_view name = d->d_name;
      if (name.front() == '.') {
        // Hidden: never listed. Bookkeeping of sitemill's is noted: an
        // earlier build's manifest here, or a .sitemill/ beside the
        // subdirectories sets were published into.
        if (name == bookkeeping_dir_name) f.has_bookkeeping = true;
        if (name.starts_with(".sitemill-manifest-") && name.ends_with(".json"))
          read_outputs(dir_path + "/" + std::string(name), f.outputs);
        continue;
      }
      entry e;
      e.key = name;
      if (d->d_type == DT_DIR) {
        e.dir = true;
      } else if (d->d_type == DT_LNK || d->d_type == DT_UNKNOWN) {
        struct stat target {};
        const std::string p = dir_path + "/" + e.key;
        e.dir = ::stat(p.c_str(), &target) == 0 && S_ISDIR(target.st_mode);
      }
      if (e.dir) e.key.push_back('/');
      f.entries.push_back(std::move(e));
      errno = 0;
    }
    const int err = errno;
    ::closedir(dir);
    if (err != 0) return describe_errno(err);
    // The files of the sets sitemill published here are its output, not
    // pages. No lookup costs a system call unless a bookkeeping directory
    // was seen: most sites have one, beside the root, or none.
    std::vector<std::string> books;
    if (f.rel.empty()) {
      if (root_book_exists_) books.push_back(root_book_);
    } else {
      const std::string_view sub(f.rel.data(), f.rel.size() - 1);  // no '/'
      const std::size_t slash = sub.rfind('/');
      const std::string_view name =
          slash == std::string_view::npos ? sub : sub.substr(slash + 1);
      if (!stack_.empty() && stack_.back().has_bookkeeping) {
        std::string beside = path_of(stack_.back().rel);
        if (beside.back() != '/') beside.push_back('/');
        books.push_back(beside + std::string(bookkeeping_dir_name) + "/" +
                        std::string(name));
      }
      if (root_book_exists_)
        books.push_back(root_book_ + "/" + std::string(sub));
    }
    for (const std::string& book : books)
      for (const set_manifest_file& m :
           find_set_manifests(dir_path, book, /*legacy=*/false))
        read_outputs(m.path, f.outputs);
    std::sort(f.entries.begin(), f.entries.end(),
              [](const entry& a, const entry& b) { return a.key < b.key; });
    std::sort(f.outputs.begin(), f.outputs.end());
    stack_.push_back(std::move(f));
    return {};
  }

  // Adds the files the manifest at `path` lists to `names`.
  static void read_outputs(const std::string& path,
                           std::vector<std::string>& names) {
    if (auto manifest = sitemill::read_manifest(path))
      for (published_file& file : manifest->files)
        names.push_back(std::move(file.path));
  }

  bool on_current_path(const struct stat& st) const noexcept {
    return std::any_of(stack_.begin(), stack_.end(), [&](const frame& f) {
      return f.dev == st.st_dev && f.ino == st.st_ino;
    });
  }

  static std::string with_count(std::uint64_t pages) {
    return pages == 1 ? "1 listed file states"
                      : std::to_string(pages) + " listed files state";
  }

  // Starts a record for the file or directory `rel`: names it as the
  // record's source (the path as a user would type it: "site/blog/a.html")
  // and sets loc to the URL of `url_rel` (a directory's with a trailing
  // '/'). `line` stays 0: the record is about the file as a whole.
  void begin_record(input_record& out, std::string_view rel,
                    std::string_view url_rel, bool dir) {
    out = input_record{};
    source_ = path_of(rel);
    if (dir) source_.push_back('/');
    out.source = source_;
    loc_.assign(normalizer_.base());
    append_url_path(loc_, url_rel);
    if (dir) loc_.push_back('/');
    out.loc = loc_;
  }
  void begin_record(input_record& out, std::string_view rel, bool dir) {
    begin_record(out, rel, rel, dir);
  }

  // A note about the current record's file.
  void note_here(std::string message) {
    notes_.push_back(note{0, std::move(message), false, source_});
  }

  bool skip(input_record& out, std::string reason) {
    skipped_ = std::move(reason);
    out.skipped = skipped_;
    return true;
  }

  bool fail(input_record& out, std::string problem) {
    problem_ = std::move(problem);
    out = input_record{};
    out.source = source_;
    out.problem = problem_;
    return true;
  }

  // Handles one entry of a listing. True when `out` holds a record.
  bool visit(const std::string& rel, std::string_view name, input_record& out) {
    const std::string path = path_of(rel);
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) return false;  // removed while walking
      const int err = errno;
      begin_record(out, rel, false);
      return fail(out, "cannot read " + rel + ": " + describe_errno(err));
    }
    if (S_ISLNK(st.st_mode)) {
      char* real = ::realpath(path.c_str(), nullptr);
      if (real == nullptr) return false;  // dangling: nothing to list
      const bool inside = inside_root(real);
      std::free(real);
      if (::stat(path.c_str(), &st) != 0) return false;
      if (!inside) {
        const bool dir = S_ISDIR(st.st_mode);
        if (dir ? patterns_.decide(rel, true) == site_patterns::verdict::exclude
                : !S_ISREG(st.st_mode) || !patterns_.includes(rel)) {
          return false;
        }
        begin_record(out, rel, dir);
        return skip(out,
                    "symbolic link to outside the site directory; not "
                    "followed");
      }
    }
    if (S_ISDIR(st.st_mode)) {
      if (patterns_.decide(rel, true) == site_patterns::verdict::exclude) {
        return false;
      }
      if (on_current_path(st)) {
        begin_record(out, rel, true);
        return skip(out,
                    "symbolic link loop (leads back to a directory above "
                    "it); not followed");
      }
      if (std::string problem = push_directory(rel + "/", st);
          !problem.empty()) {
        begin_record(out, rel, true);
        return fail(out, "cannot read directory " + rel + "/: " + problem);
      }
      return false;
    }
    if (!S_ISREG(st.st_mode) || !patterns_.includes(rel)) return false;
    const std::vector<std::string>& outputs = stack_.back().outputs;
    if (std::binary_search(outputs.begin(), outputs.end(), name)) return false;
    return page(rel, name, path, st, out);
  }

  bool is_index(std::string_view name) const {
    return options_.map_index_files &&
           std::find(options_.index_files.begin(), options_.index_files.end(),
                     name) != options_.index_files.end();
  }

  // Error pages by their names: 404.html, fr/500.htm, 404/index.html.
  bool is_error_page(const std::string& rel, std::string_view name) const {
    if (is_html_name(name) &&
        is_error_status(name.substr(0, name.rfind('.')))) {
      return true;
    }
    if (std::find(options_.index_files.begin(), options_.index_files.end(),
                  name) == options_.index_files.end()) {
      return false;
    }
    std::string_view dir = std::string_view(rel).substr(
        0, rel.size() - name.size());  // "a/404/" or ""
    if (dir.empty()) return false;
    dir.remove_suffix(1);
    return is_error_status(dir.substr(dir.rfind('/') + 1));
  }

  // True when `canonical` names the page at `rel` itself, under another of
  // its spellings: the file's own path, that path without .html or .htm,
  // with or without a trailing '/', or for an index file its directory with
  // or without the '/'. What a host with clean URLs serves, and what
  // Jekyll's `permalink: /about` writes (about.html, canonical /about).
  bool names_itself(const normalized_url& canonical, const std::string& rel,
                    std::string_view name) {
    const std::string_view dir =
        std::string_view(rel).substr(0, rel.size() - name.size());
    std::string forms[3];
    std::size_t count = 0;
    forms[count++] = rel;
    if (std::find(options_.index_files.begin(), options_.index_files.end(),
                  name) != options_.index_files.end()) {
      forms[count++] = dir;
      if (!dir.empty()) forms[count++] = dir.substr(0, dir.size() - 1);
    } else if (without_html_extension(name).size() != name.size()) {
      forms[count] = dir;
      forms[count++] += without_html_extension(name);
      forms[count] = forms[count - 1] + "/";
      ++count;
    }
    for (std::size_t i = 0; i < count; ++i) {
      form_.assign(normalizer_.base());
      append_url_path(form_, forms[i]);
      if (normalizer_.normalize(form_, scratch_url_) == url_problem::ok &&
          scratch_url_.href() == canonical.href()) {
        return true;
      }
    }
    return false;
  }

  // The robots.txt rule that disallows `url`, or "" when it is allowed.
  std::string disallowed(const normalized_url& url) const {
    if (!options_.rules.honour_robots || robots_.size() == 0) return {};
    const std::string_view target = url.path_and_query();
    return robots_.allowed(target) ? std::string{}
                                   : robots_.matching_rule(target);
  }

  // The first date the page states that reads as one and is not in the
  // future, formatted as a lastmod; "" when none. Notes those passed over.
  std::string stated_lastmod(const html_facts& facts) {
    for (std::size_t k = 0; k < stated_date_kinds; ++k) {
      const std::string& text = facts.stated_dates[k];
      if (text.empty()) continue;
      const auto kind = static_cast<stated_date_kind>(k);
      parsed_date date;
      const date_problem p =
          parse_feed_date(text, feed_date_format::rfc3339, date);
      if (p != date_problem::ok) {
        note_here(std::string(describe(kind)) + " " +
                  detail::quoted_printable(text) + " is not a date (" +
                  std::string(describe(p)) + "); not used as lastmod");
        continue;
      }
      if (date.value.unix_seconds() > now_) {
        note_here(std::string(describe(kind)) + " " +
                  detail::quoted_printable(text) +
                  " is in the future; not used as lastmod");
        continue;
      }
      char buf[max_lastmod_length];
      return std::string(buf, format_lastmod(date.value, buf));
    }
    return {};
  }

  bool page(const std::string& rel, std::string_view name,
            const std::string& path, const struct stat& st, input_record& out) {
    const bool index = is_index(name);
    const std::string_view dir =
        std::string_view(rel).substr(0, rel.size() - name.size());
    if (index) {
      begin_record(out, rel, dir, false);
    } else if (options_.clean_urls &&
               without_html_extension(name).size() != name.size()) {
      begin_record(out, rel,
                   std::string(dir) + std::string(without_html_extension(name)),
                   false);
    } else {
      begin_record(out, rel, false);
    }
    // Every check compares normalised URLs; a loc the normaliser refuses
    // goes on as it is, and the entry stage reports why.
    if (normalizer_.normalize(loc_, url_) != url_problem::ok) return true;

    if (std::string rule = disallowed(url_); !rule.empty()) {
      return skip(out, "disallowed by robots.txt (" + rule + ")");
    }
    if (options_.skip_error_pages && is_error_page(rel, name)) {
      return skip(out, "error page (named for an HTTP error status)");
    }

    const bool html = is_html_name(name);
    const bool by_page = options_.lastmod == lastmod_policy::page;
    const bool state = options_.state != nullptr &&
                       (options_.lastmod == lastmod_policy::content || by_page);
    // Every listed HTML page is read and parsed on every run, state or no
    // state: its alternates and images come from this run's bytes.
    const bool inspect =
        html && (options_.rules.honour_noindex ||
                 options_.rules.honour_canonical || options_.honour_refresh ||
                 state || by_page || options_.alternates || options_.images);
    content_hash hash;
    std::string stated;
    if (inspect) {
      bool too_large = false;
      if (!read_file(path, bytes_, max_html_bytes, &too_large)) {
        return fail(out, "cannot read " + rel + ": " + describe_errno(errno));
      }
      if (too_large) {
        return fail(out, "cannot read " + rel +
                             ": an HTML page over 64 MiB is not read");
      }
      html_scan_options scan;
      scan.images = options_.images;
      scan.dates = by_page;
      const html_facts facts = scan_html(bytes_, scan);
      hash = facts.hash;
      links_.resolve(url_, facts,
                     {.canonical = options_.rules.honour_canonical,
                      .refresh = options_.honour_refresh,
                      .alternates = options_.alternates,
                      .images = options_.images});
      if (!links_.refresh().empty() && links_.refresh().href() != url_.href()) {
        return skip(out, "redirect (meta refresh to " +
                             std::string(links_.refresh().href()) + ")");
      }
      if (options_.rules.honour_noindex && facts.noindex) {
        return skip(out, "noindex (meta robots)");
      }
      if (!links_.canonical().empty() &&
          links_.canonical().href() != url_.href()) {
        if (!names_itself(links_.canonical(), rel, name)) {
          return skip(out, "canonical points to " +
                               std::string(links_.canonical().href()));
        }
        // The page itself under the spelling its site chose: listed so.
        url_ = links_.canonical();
        loc_.assign(url_.href());
        out.loc = loc_;
        if (std::string rule = disallowed(url_); !rule.empty()) {
          return skip(out, "disallowed by robots.txt (" + rule + ")");
        }
      }
      for (const std::string& n : links_.notes()) note_here(n);
      out.extensions = links_.extensions();
      if (by_page) stated = stated_lastmod(facts);
    } else if (state) {
      if (!hash_file(path, hash)) {
        return fail(out, "cannot read " + rel + ": " + describe_errno(errno));
      }
    }

    const std::string mtime = lastmod_from_unix_time(st.st_mtim.tv_sec);
    if (state) {
      // With a state database every listed page is offered, so that its
      // changes are tracked whichever date is published.
      auto answer = options_.state->lastmod_for(
          url_.href(), hash, stated.empty() ? mtime : stated);
      if (!answer) {
        error_ = std::move(answer).err().message;
        stack_.clear();
        return false;
      }
      lastmod_ = stated.empty() ? std::move(*answer) : std::move(stated);
      out.lastmod = lastmod_;
      return true;
    }
    switch (options_.lastmod) {
      case lastmod_policy::none:
      case lastmod_policy::content:  // needs a state; open refuses it
        break;
      case lastmod_policy::mtime:
        lastmod_ = mtime;
        out.lastmod = lastmod_;
        break;
      case lastmod_policy::page:
        if (stated.empty()) {
          ++undated_;
          break;
        }
        lastmod_ = std::move(stated);
        out.lastmod = lastmod_;
        break;
    }
    return true;
  }

  const site_source_options options_;  // a copy: the caller's may go
  url_normalizer normalizer_;
  site_patterns patterns_;
  std::string root_;       // as given, without trailing '/'
  std::string root_real_;  // realpath of the root
  std::string root_book_;  // the root's bookkeeping directory
  bool root_book_exists_ = false;
  robots_rules robots_;
  std::vector<frame> stack_;
  std::int64_t now_ = static_cast<std::int64_t>(std::time(nullptr));
  std::uint64_t undated_ = 0;  // listed pages --lastmod page found no date in
  bool finished_ = false;
  // The current record's text (input_record holds views into these).
  std::string source_, loc_, lastmod_, skipped_, problem_, bytes_, form_;
  normalized_url url_, scratch_url_;
  detail::page_links links_;  // the current page's; out.extensions views it
  std::string error_;
  std::vector<note> notes_;
};

}  // namespace

std::optional<lastmod_policy> parse_lastmod_policy(
    std::string_view name) noexcept {
  if (name == "mtime") return lastmod_policy::mtime;
  if (name == "content") return lastmod_policy::content;
  if (name == "none") return lastmod_policy::none;
  if (name == "page") return lastmod_policy::page;
  return std::nullopt;
}

std::string lastmod_from_unix_time(std::int64_t seconds) {
  constexpr std::int64_t day = 86400;
  std::int64_t days = seconds / day;
  std::int64_t rest = seconds % day;
  if (rest < 0) {
    rest += day;
    --days;
  }
  std::int64_t year = 0;
  unsigned month = 0, mday = 0;
  civil_from_days(days, year, month, mday);
  if (year < 1 || year > 9999) return {};
  w3c_datetime t;
  t.year = static_cast<std::int16_t>(year);
  t.month = static_cast<std::uint8_t>(month);
  t.day = static_cast<std::uint8_t>(mday);
  t.hour = static_cast<std::uint8_t>(rest / 3600);
  t.minute = static_cast<std::uint8_t>(rest / 60 % 60);
  t.second = static_cast<std::uint8_t>(rest % 60);
  t.zulu = true;
  t.form = datetime_form::seconds;
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(t, buf));
}

result<std::unique_ptr<record_reader>> open_site_source(
    const site_source_options& options) {
  auto normalizer = url_normalizer::with_base(options.base_url);
  if (!normalizer) {
    return error{"base URL " + options.base_url + ": " +
                 normalizer.err().message};
  }
  auto patterns = site_patterns::make(options.patterns);
  if (!patterns) return std::move(patterns).err();
  if (options.lastmod == lastmod_policy::content && options.state == nullptr) {
    return error{"`lastmod` content needs a state database (`state`)",
                 "lastmod"};
  }
  std::string root = options.root.empty() ? "." : options.root;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) {
    return error{"cannot read site directory " + options.root + ": " +
                 describe_errno(errno)};
  }
  std::string root_real = real;
  std::free(real);
  auto reader = std::make_unique<site_reader>(
      options, std::move(normalizer).value(), std::move(patterns).value(),
      std::move(root), std::move(root_real));
  if (status s = reader->start(); !s) return s.err();
  return std::unique_ptr<record_reader>(std::move(reader));
}

namespace {

class directory final : public record_source {
 public:
  explicit directory(site_source_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.root; }
  bool applies_patterns() const noexcept override { return true; }
  status validate(const source_context& context) const override {
    if (o_.lastmod == lastmod_policy::content && !context.has_state)
      return error{
          "`lastmod` content needs `state_path` to remember content hashes",
          "lastmod"};
    return {};
  }
  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    site_source_options o = o_;
    o.base_url = std::string(context.base_url);
    o.state = context.state;
    return open_site_source(o);
  }

 private:
  site_source_options o_;
};

}  // namespace

std::shared_ptr<const record_source> directory_source(
    site_source_options options) {
  return std::make_shared<directory>(std::move(options));
}

}  // namespace sitemill
