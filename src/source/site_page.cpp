// The directory source's judging of a file found by its walk
// (site_reader.h): error pages, robots.txt, meta refresh, noindex and
// canonical links (page_rules), the URL it is listed at, and its lastmod.
#include <algorithm>
#include <utility>

#include "detail/text.h"
#include "entry/language_codes.h"
#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/limits.h"
#include "sitemill/source/state_db.h"
#include "source/site_files.h"
#include "source/site_reader.h"

namespace sitemill::detail {
namespace {

// Google reads the first 15 MB of a page; a page many times that size is a
// mistake, and reading it whole would cost memory for nothing.
constexpr std::size_t max_html_bytes = std::size_t{64} << 20;

// What a title says when its page is an error page (docs/site-source.md
// lists them). Kept small and strict, because a numbered post's title names
// its number ("Post 404: ...") and a post may be about errors: a phrase
// counts as whole words in any case ("404 Not Found", "Page not found",
// "Error 404", "500 Internal Server Error"), a bare status only as the
// title's first word before a separator or nothing ("404", "404: This page
// could not be found", "500 | Example"), and only for a page at the site's
// root or a language root: deeper down, a blog's post 500 is titled
// "500 | Blog" too.
constexpr std::string_view error_title_phrases[] = {"not found", "server error",
                                                    "error 404", "error 500"};
constexpr std::string_view error_title_statuses[] = {"404", "500"};
constexpr std::string_view title_separators[] = {
    ":", "|", "-", "/", "\u00B7", "\u2013", "\u2014"};

constexpr bool is_word_char(char c) noexcept {
  return is_ascii_alpha(c) || is_ascii_digit(c);
}

bool has_whole_words(std::string_view title, std::string_view phrase) noexcept {
  for (std::size_t at = 0; at + phrase.size() <= title.size(); ++at) {
    const std::size_t end = at + phrase.size();
    if (iequals(title.substr(at, phrase.size()), phrase) &&
        (at == 0 || !is_word_char(title[at - 1])) &&
        (end == title.size() || !is_word_char(title[end]))) {
      return true;
    }
  }
  return false;
}

// True when `title` (whitespace collapsed, as scan_html() gives it) says its
// page is an error page; `at_a_root`: the page stands at the site's root or
// a language root, where a bare status says so too.
bool is_error_title(std::string_view title, bool at_a_root) noexcept {
  for (const std::string_view phrase : error_title_phrases) {
    if (has_whole_words(title, phrase)) return true;
  }
  if (!at_a_root) return false;
  for (const std::string_view status : error_title_statuses) {
    if (!title.starts_with(status)) continue;
    std::string_view rest = title.substr(status.size());
    if (rest.starts_with(' ')) rest.remove_prefix(1);
    if (rest.empty()) return true;
    for (const std::string_view separator : title_separators) {
      if (rest.starts_with(separator)) return true;
    }
  }
  return false;
}

// True when `home` ("de/", "blog/") is a language root: only a top-level
// folder named for a language is one; a 404.html deeper down may be a post
// numbered 404.
bool is_language_root(std::string_view home) noexcept {
  const std::string_view language = home.substr(0, home.size() - 1);
  return !language.empty() && language.find('/') == std::string_view::npos &&
         check_hreflang(language) == hreflang_problem::ok;
}

// The folder of the file at `rel` named `name`: "", "de/", "blog/500/".
std::string_view folder_of(std::string_view rel,
                           std::string_view name) noexcept {
  return rel.substr(0, rel.size() - name.size());
}

// The folder `folder` stands in: "blog/" for "blog/500/", "" (the root) for
// "de/" and for the root itself. A folder's index page (blog/500/index.html,
// the page blog/500/) stands there.
std::string_view folder_above(std::string_view folder) noexcept {
  if (folder.empty()) return folder;
  folder.remove_suffix(1);
  return folder.substr(0, folder.rfind('/') + 1);  // npos + 1 == 0: the root
}

}  // namespace

bool site_reader::is_index(std::string_view name) const {
  return options_.map_index_files &&
         std::find(options_.index_files.begin(), options_.index_files.end(),
                   name) != options_.index_files.end();
}

bool site_reader::named_error_page(std::string_view rel,
                                   std::string_view name) {
  const bool index_file =
      std::find(options_.index_files.begin(), options_.index_files.end(),
                name) != options_.index_files.end();
  // The folder an index file serves: "blog/gone" for blog/gone/index.html.
  std::string_view folder = folder_of(rel, name);
  if (!folder.empty()) folder.remove_suffix(1);
  bool found = false;
  for (std::size_t i = 0; i < options_.error_pages.size(); ++i) {
    std::string_view named = options_.error_pages[i];
    // Named as the user would type a URL path or a file path: "/oops.html",
    // "./oops.html", "gone/" for gone/index.html.
    while (named.starts_with("./")) named.remove_prefix(2);
    while (named.starts_with('/')) named.remove_prefix(1);
    bool match = named == rel;
    if (named.ends_with('/')) named.remove_suffix(1);
    match = match || (index_file && named == folder);
    if (match) error_page_used_[i] = found = true;
  }
  return found;
}

std::string site_reader::is_error_page(const std::string& rel,
                                       std::string_view name) {
  if (named_error_page(rel, name)) {
    return "error page (named by `error_pages`)";
  }
  if (!options_.skip_error_pages) return {};
  const std::string_view folder = folder_of(rel, name);  // "", "de/", "a/404/"
  std::string_view home = folder;
  std::string_view what = name;  // "404.html" or "404/index.html"
  if (!(is_html_name(name) &&
        is_error_status(name.substr(0, name.rfind('.'))))) {
    if (folder.empty() ||
        std::find(options_.index_files.begin(), options_.index_files.end(),
                  name) == options_.index_files.end()) {
      return {};
    }
    home = folder_above(folder);
    const std::string_view status =
        folder.substr(home.size(), folder.size() - home.size() - 1);
    if (!is_error_status(status)) return {};
    what = std::string_view(rel).substr(home.size());
  }
  if (home.empty()) {
    return "error page (" + std::string(what) + " at the site's root)";
  }
  if (!is_language_root(home)) return {};
  return "error page (" + std::string(what) + " at the language root " +
         std::string(home) + ")";
}

bool site_reader::stands_at_a_root(const std::string& rel,
                                   std::string_view name) const {
  std::string_view home = folder_of(rel, name);  // "", "de/", "blog/500/"
  if (is_index(name)) home = folder_above(home);
  return home.empty() || is_language_root(home);
}

bool site_reader::names_itself(const normalized_url& canonical,
                               const std::string& rel, std::string_view name) {
  const std::string_view dir = folder_of(rel, name);
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

std::string site_reader::unserved(const normalized_url& url) const {
  const normalized_url& base = normalizer_.base_url();
  if (url.origin() != base.origin() || !url.path().starts_with(base.path()))
    return {};
  const std::string rel = percent_decode(url.path().substr(base.path().size()));
  // The files a static host serves for the path, as Netlify, Cloudflare
  // Pages, GitHub Pages and nginx's try_files $uri $uri.html $uri/ do: a
  // directory's path its index file; any other path the file itself, that
  // name with .html or .htm (clean URLs), or the index file of a directory
  // so named (reached through a redirect to the path with '/').
  std::vector<std::string> files;
  const bool directory = rel.empty() || rel.back() == '/';
  if (!directory) {
    files.push_back(rel);
    files.push_back(rel + ".html");
    files.push_back(rel + ".htm");
  }
  for (const std::string& index : options_.index_files)
    files.push_back(rel + (directory ? "" : "/") + index);
  std::string looked;
  for (const std::string& file : files) {
    // A decoded name may hold what no path of the tree can: NUL, "..".
    if (file.find('\0') != std::string::npos ||
        ("/" + file + "/").find("/../") != std::string::npos)
      continue;
    struct stat st {};
    if (::stat(path_of(file).c_str(), &st) == 0 && S_ISREG(st.st_mode))
      return {};
    if (directory || file != rel)
      (looked += looked.empty() ? "" : " or ") += file;
  }
  return looked.empty() ? std::string("a file for it") : looked;
}

std::string site_reader::disallowed(const normalized_url& url) const {
  if (!options_.rules.honour_robots || robots_.size() == 0) return {};
  const std::string_view target = url.path_and_query();
  return robots_.allowed(target) ? std::string{}
                                 : robots_.matching_rule(target);
}

std::string site_reader::stated_lastmod(const html_facts& facts) {
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

bool site_reader::page(const std::string& rel, std::string_view name,
                       const std::string& path, const struct stat& st,
                       input_record& out) {
  const bool index = is_index(name);
  stated_now_ = false;
  // Asked first, so that a named page is known to be found whichever rule
  // then skips it.
  (void)named_error_page(rel, name);
  const std::string_view dir = folder_of(rel, name);
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
  if (const std::string_view service = verification_service(name);
      !service.empty()) {
    return skip(out, "site verification file (" + std::string(service) + ")");
  }
  if (std::string why = is_error_page(rel, name); !why.empty()) {
    return skip(out, std::move(why));
  }

  const bool html = is_html_name(name);
  const bool by_page = options_.lastmod == lastmod_policy::page;
  const bool state = options_.state != nullptr &&
                     (options_.lastmod == lastmod_policy::content || by_page);
  // Every listed HTML page is read and parsed on every run, state or no
  // state: its alternates and images come from this run's bytes.
  const bool inspect =
      html && (options_.skip_error_pages || options_.rules.honour_noindex ||
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
      return fail(
          out, "cannot read " + rel + ": an HTML page over 64 MiB is not read");
    }
    html_scan_options scan;
    scan.images = options_.images;
    scan.dates = by_page;
    const html_facts facts = scan_html(bytes_, scan);
    if (options_.skip_error_pages &&
        is_error_title(facts.title, stands_at_a_root(rel, name))) {
      return skip(out, "error page (its title says " +
                           detail::quoted_printable(facts.title) + ")");
    }
    hash = facts.hash;
    links_.resolve(url_, facts,
                   {.canonical = options_.rules.honour_canonical,
                    .refresh = options_.honour_refresh,
                    .alternates = options_.alternates,
                    .images = options_.images});
    if (!links_.refresh().empty() && links_.refresh().href() != url_.href()) {
      if (facts.refresh_seconds == 0) {
        return skip(out, "redirect (meta refresh to " +
                             std::string(links_.refresh().href()) + ")");
      }
      if (options_.trace) {
        options_.trace(source_ + ": listed: its meta refresh to " +
                       std::string(links_.refresh().href()) + " waits " +
                       std::to_string(facts.refresh_seconds) +
                       " s; only an instant one is a redirect");
      }
    }
    if (options_.rules.honour_noindex && facts.noindex) {
      return skip(out, "noindex (meta robots)");
    }
    if (!links_.canonical().empty() &&
        links_.canonical().href() != url_.href()) {
      if (!names_itself(links_.canonical(), rel, name)) {
        if (std::string looked = unserved(links_.canonical());
            !looked.empty())
          note_here("its canonical " +
                    std::string(links_.canonical().href()) +
                    " names no file of the directory (no " + looked +
                    "), so neither it nor this page is listed: check the "
                    "canonical link");
        return skip(out, "canonical points to " +
                             std::string(links_.canonical().href()));
      }
      // The page itself under the spelling its site chose: listed so, even
      // when no file serves that spelling (the host may rewrite it), but
      // said, since a static host would answer it with a 404.
      if (std::string looked = unserved(links_.canonical()); !looked.empty())
        note_here("listed under its canonical " +
                  std::string(links_.canonical().href()) +
                  ", but no file of the directory serves that URL (no " +
                  looked + "); a static host serves this page at " +
                  std::string(url_.href()) +
                  ": check the canonical link, or that the host answers it");
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
    auto answer = options_.state->lastmod_for(url_.href(), hash,
                                              stated.empty() ? mtime : stated);
    if (!answer) {
      error_ = std::move(answer).err().message;
      stack_.clear();
      return false;
    }
    stated_now_ = !stated.empty();
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
      stated_now_ = true;
      lastmod_ = std::move(stated);
      out.lastmod = lastmod_;
      break;
  }
  return true;
}

}  // namespace sitemill::detail
