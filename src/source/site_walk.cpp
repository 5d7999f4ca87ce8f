// The directory source's walk (site_reader.h): a depth-first walk in byte
// order, one record per listed file; the files are judged in site_page.cpp.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <utility>

#include "detail/text.h"
#include "sitemill/date/dates.h"
#include "sitemill/limits.h"
#include "sitemill/publish/publish.h"
#include "source/site_files.h"
#include "source/site_reader.h"

namespace sitemill::detail {
namespace {

// One byte past the limit parse_robots_rules() reads, so that it can tell a
// file that ends at the limit from one the limit cuts.
constexpr std::size_t max_robots_bytes = max_robots_txt_bytes + 1;

}  // namespace

status site_reader::start() {
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
  error_page_used_.assign(options_.error_pages.size(), false);
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

bool site_reader::next(input_record& out) {
  while (!stack_.empty()) {
    frame& f = stack_.back();
    if (f.next == f.entries.size()) {
      stack_.pop_back();
      continue;
    }
    // Copies: visiting a directory pushes a frame, moving `f`.
    const std::string name(f.entries[f.next++].name());
    const std::string rel = f.rel + name;
    if (visit(rel, name, out)) {
      if (out.skipped.empty() && out.problem.empty()) count_listed(out.lastmod);
      return true;
    }
    if (!error_.empty()) return false;
  }
  if (!finished_) {
    finished_ = true;
    finish();
  }
  return false;
}

void site_reader::count_listed(std::string_view lastmod) {
  ++listed_;
  if (lastmod.empty()) return;
  if (dated_++ == 0)
    first_lastmod_.assign(lastmod);
  else if (lastmod != first_lastmod_)
    one_lastmod_ = false;
  stated_ += stated_now_;
}

void site_reader::finish() {
  if (undated_ != 0) {
    notes_.push_back(
        note{0, with_count(undated_) +
                    " no date (article:modified_time, JSON-LD dateModified, "
                    "...); listed without a lastmod (give `state` to date "
                    "them by content, or `lastmod` mtime if the files' times "
                    "are when their pages changed)"});
  }
  // The stamp check's lastmod-all-same would find in the sitemaps: said
  // here, where its cause and its fix are known.
  if (one_lastmod_ && dated_ == listed_ &&
      listed_ >= lastmod_all_same_entries) {
    std::string m = "all " + std::to_string(listed_) +
                    " listed pages get one lastmod, " + first_lastmod_ + ", ";
    if (stated_ == dated_) {
      m +=
          "the date each states (a template that writes the build time?), "
          "which search engines learn to ignore: have the pages state when "
          "each last changed, or give `lastmod` content with `state`";
    } else if (options_.lastmod == lastmod_policy::mtime) {
      m +=
          "their files' modification time: the files were written at once "
          "(a build, or a checkout in CI, which keeps no file times), so it "
          "says nothing of when each page changed. `lastmod` page takes the "
          "date each page states; `lastmod` content with `state` the time "
          "each page's content last changed";
    } else {
      m +=
          "the time each page's content was first seen, one run for all (a "
          "new `state`, or one not kept from the last run). Keep `state` "
          "between runs (cache the file in CI): a page's lastmod then moves "
          "only when its content changes";
    }
    notes_.push_back(note{0, std::move(m)});
  }
  for (std::size_t i = 0; i < error_page_used_.size(); ++i) {
    if (error_page_used_[i]) continue;
    notes_.push_back(
        note{0, "`error_pages` " +
                    detail::quoted_printable(options_.error_pages[i]) +
                    " names no page of the directory (a path from it: "
                    "oops.html, or errors/gone/ for errors/gone/index.html); "
                    "nothing was left out for it"});
  }
}

std::string site_reader::path_of(std::string_view rel) const {
  std::string p = root_;
  if (!rel.empty()) {
    if (p.empty() || p.back() != '/') p.push_back('/');
    p.append(rel);
  }
  return p;
}

bool site_reader::inside_root(std::string_view real) const noexcept {
  if (root_real_ == "/") return true;
  return real == root_real_ ||
         (real.starts_with(root_real_) && real[root_real_.size()] == '/');
}

void site_reader::read_robots() {
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

std::string site_reader::push_directory(std::string rel,
                                        const struct stat& st) {
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
    if (root_book_exists_) books.push_back(root_book_ + "/" + std::string(sub));
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

void site_reader::read_outputs(const std::string& path,
                               std::vector<std::string>& names) {
  if (auto manifest = sitemill::read_manifest(path))
    for (published_file& file : manifest->files)
      names.push_back(std::move(file.path));
}

bool site_reader::on_current_path(const struct stat& st) const noexcept {
  return std::any_of(stack_.begin(), stack_.end(), [&](const frame& f) {
    return f.dev == st.st_dev && f.ino == st.st_ino;
  });
}

std::string site_reader::with_count(std::uint64_t pages) {
  return pages == 1 ? "1 listed file states"
                    : std::to_string(pages) + " listed files state";
}

void site_reader::begin_record(input_record& out, std::string_view rel,
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

void site_reader::begin_record(input_record& out, std::string_view rel,
                               bool dir) {
  begin_record(out, rel, rel, dir);
}

void site_reader::note_here(std::string message) {
  notes_.push_back(note{0, std::move(message), false, source_});
}

bool site_reader::skip(input_record& out, std::string reason) {
  skipped_ = std::move(reason);
  out.skipped = skipped_;
  return true;
}

bool site_reader::fail(input_record& out, std::string problem) {
  problem_ = std::move(problem);
  out = input_record{};
  out.source = source_;
  out.problem = problem_;
  return true;
}

bool site_reader::visit(const std::string& rel, std::string_view name,
                        input_record& out) {
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
    if (std::string problem = push_directory(rel + "/", st); !problem.empty()) {
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

}  // namespace sitemill::detail
