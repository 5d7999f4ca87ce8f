#include "sitemill/publish/publish.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_map>
#include <unordered_set>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "detail/text.h"

namespace sitemill {
namespace {

using json = nlohmann::json;

std::string sys_error(std::string_view what, const std::string& path, int err) {
  return std::string(what) + " " + path + ": " + std::strerror(err);
}

// A name from a manifest or journal is only ever acted on when it names a
// plain file directly inside the directory: a tampered manifest must not
// make sitemill delete ../anything.
bool is_safe_name(std::string_view name) noexcept {
  if (name.empty() || name.front() == '.') return false;
  for (char c : name)
    if (c == '/' || c == '\0') return false;
  return true;
}

json to_json(const published_file& f) {
  return {{"path", f.path},
          {"type", std::string(to_string(f.type))},
          {"urls", f.urls},
          {"bytes", f.bytes},
          {"digest", detail::to_hex(f.digest)}};
}

std::optional<published_file> from_json(const json& j) {
  if (!j.is_object() || !j.contains("path") || !j["path"].is_string())
    return std::nullopt;
  published_file f;
  f.path = j["path"].get<std::string>();
  if (!is_safe_name(f.path)) return std::nullopt;
  std::string type = j.value("type", "urlset");
  f.type = document_type::urlset;
  for (document_type t : {document_type::sitemapindex, document_type::text,
                          document_type::stylesheet, document_type::html})
    if (type == to_string(t)) f.type = t;
  f.urls = j.value("urls", std::size_t{0});
  f.bytes = j.value("bytes", std::uint64_t{0});
  f.digest =
      std::strtoull(j.value("digest", std::string("0")).c_str(), nullptr, 16);
  return f;
}

result<std::vector<published_file>> files_from_json(const json& arr) {
  std::vector<published_file> out;
  if (!arr.is_array()) return error{"\"files\" is not a list"};
  for (const auto& j : arr) {
    auto f = from_json(j);
    if (!f)
      return error{
          "a file entry is malformed or names a path outside the directory"};
    out.push_back(std::move(*f));
  }
  return out;
}

// Reads the file open on `fd` to its end in blocks of `buffer`, giving each
// to `each`, and closes it; `path` names it in errors. One loop for every
// whole-file read here: manifests and journals, and digests.
template <class Each>
status read_and_close(int fd, const std::string& path,
                      std::vector<char>& buffer, Each&& each) {
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return error{sys_error("cannot read", path, err)};
    }
    if (n == 0) break;
    each(buffer.data(), static_cast<std::size_t>(n));
  }
  ::close(fd);
  return {};
}

// The small file open on `fd` (a manifest or journal), whole.
result<std::string> read_and_close(int fd, const std::string& path) {
  std::string text;
  std::vector<char> buffer(65536);
  if (status s = read_and_close(
          fd, path, buffer,
          [&](const char* p, std::size_t n) { text.append(p, n); });
      !s)
    return s.err();
  return text;
}

}  // namespace

result<published_manifest> read_manifest(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", path, errno)};
  auto text = read_and_close(fd, path);
  if (!text) return text.err();
  json j = json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_manifest"))
    return error{path + " is not a sitemill manifest"};
  auto files = files_from_json(j["files"]);
  if (!files) return error{path + ": " + files.err().message};
  return published_manifest{j.value("entry", std::string()), std::move(*files)};
}

result<std::uint64_t> file_digest_of(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", path, errno)};
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  std::vector<char> buffer(1 << 20);
  if (status s = read_and_close(fd, path, buffer,
                                [&](const char* p, std::size_t n) {
                                  XXH3_64bits_update(&state, p, n);
                                });
      !s)
    return s.err();
  return XXH3_64bits_digest(&state);
}

std::string_view to_string(publish_step step) noexcept {
  switch (step) {
    case publish_step::temporary_created:
      return "temporary_created";
    case publish_step::batch_read:
      return "batch_read";
    case publish_step::sitemaps_finished:
      return "sitemaps_finished";
    case publish_step::journal_written:
      return "journal_written";
    case publish_step::child_renamed:
      return "child_renamed";
    case publish_step::children_renamed:
      return "children_renamed";
    case publish_step::entry_renamed:
      return "entry_renamed";
    case publish_step::manifest_written:
      return "manifest_written";
    case publish_step::old_removed:
      return "old_removed";
  }
  return "";
}

publisher::publisher(std::string dir, std::string book_dir, std::string set)
    : dir_(std::move(dir)),
      book_dir_(std::move(book_dir)),
      lock_path_(book_dir_ + "/" + std::string(lock_file_name)),
      set_(std::move(set)),
      manifest_name_(manifest_file_name(set_)),
      journal_name_(journal_file_name(set_)) {}

publisher::~publisher() {
  discard_temporaries();
  if (dir_fd_ >= 0) ::close(dir_fd_);
  if (book_fd_ >= 0) ::close(book_fd_);
  if (legacy_lock_fd_ >= 0) ::close(legacy_lock_fd_);
  if (lock_fd_ >= 0) {
    // Unlinked while still held: a run that opened the file meanwhile sees
    // that its name is gone once it gets the flock, and starts over.
    if (lock_removable_) ::unlink(lock_path_.c_str());
    ::close(lock_fd_);  // releases the flock
  }
  // rmdir removes only empty directories: never anything a user put there.
  // Innermost first; a directory still in use stays and so do its parents.
  for (auto it = created_dirs_.rbegin(); it != created_dirs_.rend(); ++it)
    ::rmdir(it->c_str());
}

namespace {

// The lock file holds one line per run token whose temporaries may still be
// in the directory: the run holding the lock, and runs that were killed.
// Every line is the same length, so rewriting the first line in place never
// splits another.
constexpr std::size_t lock_line_size = 17;  // 16 hex digits and '\n'

std::vector<std::string> tokens_in(int lock_fd) {
  std::vector<std::string> tokens;
  char buf[64 * lock_line_size];
  ssize_t n = ::pread(lock_fd, buf, sizeof buf, 0);
  for (ssize_t at = 0; n > 0 && at + static_cast<ssize_t>(lock_line_size) <= n;
       at += static_cast<ssize_t>(lock_line_size)) {
    const std::string_view token(buf + at, lock_line_size - 1);
    if (buf[at + lock_line_size - 1] == '\n' && is_run_token(token))
      tokens.emplace_back(token);
  }
  return tokens;
}

}  // namespace

status publisher::record_tokens(const std::vector<std::string>& tokens) {
  std::string text;
  for (const auto& t : tokens) text += t + "\n";
  const char* p = text.data();
  std::size_t left = text.size();
  off_t at = 0;
  while (left > 0) {
    ssize_t n = ::pwrite(lock_fd_, p, left, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return error{sys_error("cannot record the run in", lock_path_, errno)};
    p += n;
    at += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::ftruncate(lock_fd_, static_cast<off_t>(text.size())) != 0 ||
      ::fsync(lock_fd_) != 0)
    return error{sys_error("cannot record the run in", lock_path_, errno)};
  return {};
}

namespace {

std::string without_trailing_slashes(std::string path) {
  if (path.empty()) path = ".";
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool same_directory(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

// mkdir -p, one level at a time, remembering what this run created; `path`
// must be a directory in the end.
status publisher::make_directories(const std::string& path) {
  for (std::size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    std::string part = path.substr(0, pos);
    if (::mkdir(part.c_str(), 0755) == 0)
      created_dirs_.push_back(part);
    else if (errno != EEXIST)
      return error{sys_error("cannot create directory", part, errno)};
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return error{sys_error("cannot open", path, errno)};
  if (!S_ISDIR(st.st_mode)) return error{path + " is not a directory"};
  return {};
}

status publisher::take_lock() {
  for (int tries = 0;; ++tries) {
    int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return error{sys_error("cannot create", lock_path_, errno)};
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        return error{"another sitemill run is publishing to " + dir_ +
                     " (it holds " + lock_path_ + "); wait for it to finish"};
      return error{sys_error("cannot lock", lock_path_, err)};
    }
    // The run we waited for may have removed the file we locked (see
    // ~publisher): the lock counts only while the name leads to our file.
    struct stat held, named;
    if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      lock_fd_ = fd;
      return {};
    }
    ::close(fd);
    if (tries == 8)
      return error{"cannot lock " + lock_path_ + ": it keeps being replaced"};
  }
}

// An earlier build's lock in the set directory: a run of it may still hold
// it, and it records the tokens of its killed runs, whose temporaries are in
// the directory.
status publisher::take_legacy_lock(std::vector<std::string>& dead_runs) {
  const std::string path =
      dir_ + "/" + std::string(legacy_bookkeeping::lock_file_name);
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    return error{sys_error("cannot open", path, errno)};
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return error{"an earlier sitemill build is publishing to " + dir_ +
                   " (it holds " + path + "); wait for it to finish"};
    return error{sys_error("cannot lock", path, err)};
  }
  legacy_lock_fd_ = fd;
  for (std::string& t : tokens_in(fd))
    if (std::find(dead_runs.begin(), dead_runs.end(), t) == dead_runs.end())
      dead_runs.push_back(std::move(t));
  return {};
}

result<std::unique_ptr<publisher>> publisher::open(
    std::string dir, std::string set, std::string bookkeeping_dir) {
  if (!is_safe_name(set))
    return error{"set name \"" + set + "\" is not a plain name"};
  dir = without_trailing_slashes(std::move(dir));
  if (bookkeeping_dir.empty()) {
    auto book = default_bookkeeping_dir(dir);
    if (!book) return error{book.err().message, "dir"};
    bookkeeping_dir = std::move(*book);
  }
  bookkeeping_dir = without_trailing_slashes(std::move(bookkeeping_dir));
  // From here on the destructor undoes what open() did if it fails.
  std::unique_ptr<publisher> p(
      new publisher(dir, std::move(bookkeeping_dir), std::move(set)));
  if (status s = p->make_directories(p->dir_); !s)
    return error{s.err().message, "dir"};
  if (status s = p->make_directories(p->book_dir_); !s) return s.err();
  if (same_directory(p->dir_, p->book_dir_))
    return error{
        "sitemill's bookkeeping cannot live in the directory it "
        "publishes to (" +
        p->dir_ + "); choose another directory for it"};
  if (status s = p->take_lock(); !s) return s.err();
  p->dir_fd_ = ::open(p->dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (p->dir_fd_ < 0) return error{sys_error("cannot open", p->dir_, errno)};
  p->book_fd_ =
      ::open(p->book_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (p->book_fd_ < 0)
    return error{sys_error("cannot open", p->book_dir_, errno)};

  // This run's token joins the record before it makes any temporary file
  // (recovery writes some), and the dead runs' tokens leave it only once
  // their leftovers are gone.
  std::vector<std::string> tokens = tokens_in(p->lock_fd_);
  std::vector<std::string> dead = tokens;
  tokens.push_back(p->token_);
  if (status s = p->record_tokens(tokens); !s) {
    p->lock_removable_ = dead.empty();
    return s.err();
  }
  if (status s = p->take_legacy_lock(dead); !s) {
    p->lock_removable_ = tokens.size() == 1;
    return s.err();
  }
  if (status s = p->adopt_legacy_files(); !s) return s.err();
  if (status s = p->recover(dead); !s) return s.err();
  if (tokens.size() > 1)
    if (status s = p->record_tokens({p->token_}); !s) return s.err();
  if (p->legacy_lock_fd_ >= 0) {
    // Its dead runs' leftovers are gone: the proof is no longer needed.
    const std::string legacy_lock =
        p->dir_ + "/" + std::string(legacy_bookkeeping::lock_file_name);
    ::unlink(legacy_lock.c_str());
    ::close(p->legacy_lock_fd_);
    p->legacy_lock_fd_ = -1;
  }
  p->lock_removable_ = true;
  return p;
}

namespace {

struct dir_ops {
  int dir_fd;
  const std::string& dir;
  const std::string& token;  // of the run, for its temporary files

  std::string path(std::string_view name) const {
    return dir + "/" + std::string(name);
  }

  bool exists(const std::string& name) const {
    struct stat st;
    return ::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode);
  }

  status sync() const {
    if (::fsync(dir_fd) != 0)
      return error{sys_error("cannot fsync", dir, errno)};
    return {};
  }

  status remove(const std::string& name) const {
    if (::unlinkat(dir_fd, name.c_str(), 0) != 0 && errno != ENOENT)
      return error{sys_error("cannot remove", path(name), errno)};
    return {};
  }

  status rename(const std::string& from_path,
                const std::string& to_name) const {
    if (::rename(from_path.c_str(), path(to_name).c_str()) != 0)
      return error{sys_error("cannot rename into place", path(to_name), errno)};
    return {};
  }

  result<json> read_json(std::string_view name) const {
    std::string p = path(name);
    int fd = ::openat(dir_fd, std::string(name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return error{sys_error("cannot open", p, errno)};
    auto text = read_and_close(fd, p);
    if (!text) return text.err();
    json j = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return error{p +
                   " is not valid JSON; remove it to start afresh (old files "
                   "will then be kept)"};
    return j;
  }

  // The JSON is either old or new, never half written.
  status write_json(std::string_view name, const json& j) const {
    return write_file_atomically(path(name), j.dump(1) + "\n", token);
  }
};

json manifest_json(const std::string& entry,
                   const std::vector<published_file>& files) {
  json arr = json::array();
  for (const auto& f : files) arr.push_back(to_json(f));
  return {
      {"sitemill_manifest", 1}, {"entry", entry}, {"files", std::move(arr)}};
}

}  // namespace

namespace {

// The fixed-name files a journal says are renamed after its commit:
// final name to the temporary file that holds the new bytes.
std::unordered_map<std::string, std::string> late_files(const json& journal) {
  std::unordered_map<std::string, std::string> late;
  const auto it = journal.find("late");
  if (it == journal.end() || !it->is_array()) return late;
  for (const auto& l : *it) {
    if (!l.is_object()) continue;
    std::string path = l.value("path", std::string());
    std::string temp = l.value("temp", std::string());
    if (is_safe_name(path) && !temp.empty() && is_safe_name(temp.substr(1)) &&
        temp.front() == '.')
      late.emplace(std::move(path), std::move(temp));
  }
  return late;
}

}  // namespace

// A set an earlier build published keeps its manifest and journal in the
// set directory: they move to the bookkeeping directory (written there
// first, then removed here, so a kill in between leaves a copy the next run
// removes), and recover() goes on as for any set.
status publisher::adopt_legacy_files() {
  dir_ops d{dir_fd_, dir_, token_};
  dir_ops b{book_fd_, book_dir_, token_};
  const std::pair<std::string, const std::string&> moves[] = {
      {legacy_bookkeeping::manifest_file_name(set_), manifest_name_},
      {legacy_bookkeeping::journal_file_name(set_), journal_name_}};
  bool moved = false;
  for (const auto& [legacy, now] : moves) {
    if (!d.exists(legacy)) continue;
    if (!b.exists(now)) {
      int fd = ::openat(dir_fd_, legacy.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) return error{sys_error("cannot open", d.path(legacy), errno)};
      auto text = read_and_close(fd, d.path(legacy));
      if (!text) return text.err();
      if (status s = write_file_atomically(b.path(now), *text, token_); !s)
        return s;
    }
    if (status s = d.remove(legacy); !s) return s;
    moved = true;
  }
  return moved ? d.sync() : status{};
}

status publisher::recover(const std::vector<std::string>& dead_runs) {
  dir_ops d{dir_fd_, dir_, token_};
  dir_ops b{book_fd_, book_dir_, token_};
  // A journal's late files are temporaries of a dead run that step 3 may
  // still need.
  std::unordered_set<std::string> kept_temps;
  if (b.exists(journal_name_))
    if (auto j = b.read_json(journal_name_))
      for (const auto& [_, temp] : late_files(*j)) kept_temps.insert(temp);
  // 1. Temporary files of runs that died, in both directories: never
  // published, always safe to drop. Only those whose token a lock file
  // records: the name pattern alone could be a user's file.
  for (const dir_ops* at : {&d, &b}) {
    DIR* dp = dead_runs.empty() ? nullptr : ::opendir(at->dir.c_str());
    if (dp == nullptr) continue;
    std::vector<std::string> stale;
    while (dirent* e = ::readdir(dp)) {
      std::string_view token = temp_file_token(e->d_name);
      if (!token.empty() && !kept_temps.count(e->d_name) &&
          std::find(dead_runs.begin(), dead_runs.end(), token) !=
              dead_runs.end() &&
          at->exists(e->d_name))
        stale.emplace_back(e->d_name);
    }
    ::closedir(dp);
    for (const auto& name : stale)
      if (status s = at->remove(name); !s) return s;
  }

  // 2. The published set.
  if (b.exists(manifest_name_)) {
    auto j = b.read_json(manifest_name_);
    if (!j) return j.err();
    auto files = files_from_json((*j)["files"]);
    if (!files)
      return error{b.path(manifest_name_) + ": " + files.err().message};
    current_ = std::move(*files);
    current_entry_ = j->value("entry", std::string());
  }

  // 3. A publish that was cut off: finish it if its commit (the entry rename)
  //    happened, undo its renamed children otherwise.
  if (!b.exists(journal_name_)) return {};
  auto j = b.read_json(journal_name_);
  if (!j) return j.err();
  auto fresh = files_from_json((*j)["new"]);
  if (!fresh) return error{b.path(journal_name_) + ": " + fresh.err().message};
  std::unordered_set<std::string> old_names;
  for (const auto& o : (*j)["old"])
    if (o.is_string()) old_names.insert(o.get<std::string>());
  std::string entry = j->value("entry", std::string());
  std::uint64_t entry_digest = std::strtoull(
      j->value("entry_digest", std::string("0")).c_str(), nullptr, 16);

  bool committed = false;
  if (is_safe_name(entry) && d.exists(entry)) {
    auto digest = file_digest_of(d.path(entry));
    committed = digest && *digest == entry_digest;
  }
  for (const auto& [name, temp] : late_files(*j)) {
    if (!d.exists(temp)) continue;  // renamed before the run died
    if (status s = committed ? d.rename(d.path(temp), name) : d.remove(temp);
        !s)
      return s;
  }
  if (committed) {
    if (status s = b.write_json(manifest_name_, manifest_json(entry, *fresh));
        !s)
      return s;
    std::unordered_set<std::string> keep;
    for (const auto& f : *fresh) keep.insert(f.path);
    for (const auto& name : old_names)
      if (is_safe_name(name) && !keep.count(name))
        if (status s = d.remove(name); !s) return s;
    current_ = std::move(*fresh);
    current_entry_ = entry;
  } else {
    for (const auto& f : *fresh)
      if (f.path != entry && !old_names.count(f.path))
        if (status s = d.remove(f.path); !s) return s;
  }
  if (status s = d.sync(); !s) return s;
  if (status s = b.remove(journal_name_); !s) return s;
  return b.sync();
}

std::string publisher::temp_path(std::string_view name) {
  std::string p = dir_ + "/" +
                  temp_file_name(token_, std::to_string(temp_counter_++) + "-" +
                                             std::string(name));
  temporaries_.push_back(p);
  if (after_step) after_step(publish_step::temporary_created);
  return p;
}

void publisher::discard_temporaries() noexcept {
  for (const auto& p : temporaries_) ::unlink(p.c_str());
  temporaries_.clear();
}

void publisher::undo(const std::vector<std::string>& renamed) noexcept {
  dir_ops d{dir_fd_, dir_, token_};
  dir_ops b{book_fd_, book_dir_, token_};
  bool all = true;
  for (const auto& name : renamed) all = d.remove(name) && all;
  // Without the journal the next run would not know these names; it stays
  // when one could not be removed.
  if (all && d.sync()) (void)b.remove(journal_name_);
  (void)b.sync();
}

status publisher::publish(std::vector<staged_file> files,
                          const std::string& entry) {
  dir_ops d{dir_fd_, dir_, token_};
  dir_ops b{book_fd_, book_dir_, token_};
  const staged_file* entry_file = nullptr;
  for (const auto& f : files) {
    if (!is_safe_name(f.file.path))
      return error{"refusing to publish unsafe name " + f.file.path};
    if (f.file.path == entry) entry_file = &f;
  }
  if (entry_file == nullptr)
    return error{"entry " + entry + " is not among the files"};

  std::unordered_map<std::string, const published_file*> old;
  for (const auto& f : current_) old[f.path] = &f;
  // A child keeps its name only while its bytes stay the same; a different
  // digest under an old name would change the live set before the commit.
  for (const auto& f : files) {
    auto it = old.find(f.file.path);
    if (f.file.path != entry && !f.fixed_name && it != old.end() &&
        it->second->digest != f.file.digest)
      return error{"file name collision on " + f.file.path +
                   " (same name, other bytes)"};
  }

  auto step = [&](publish_step s) {
    if (after_step) after_step(s);
  };
  auto unchanged_on_disk = [&](const published_file& f) {
    if (!d.exists(f.path)) return false;
    auto digest = file_digest_of(d.path(f.path));
    return digest && *digest == f.digest;
  };
  // A fixed name is a name people use too (a site's own sitemap.html): one
  // that sitemill did not write is never replaced.
  for (const auto& f : files)
    if (f.fixed_name && !old.count(f.file.path) && d.exists(f.file.path) &&
        !unchanged_on_disk(f.file))
      return error{"refusing to replace " + d.path(f.file.path) +
                   ": sitemill did not write it (no manifest lists it); "
                   "move it away or choose another `name`"};

  // Everything that reads or writes file contents happens before the first
  // rename: between it and the commit only renames run, so the window in
  // which a kill leaves new children visible is as short as it can be, and
  // a full disk is met while the old set is still whole and alone.
  std::vector<const staged_file*> to_rename;
  std::vector<const staged_file*> late;  // fixed names, after the commit
  for (const auto& f : files) {
    if (f.file.path == entry) continue;
    if (f.fixed_name) {
      if (unchanged_on_disk(f.file))
        ::unlink(f.temp_path.c_str());
      else
        late.push_back(&f);
      continue;
    }
    auto it = old.find(f.file.path);
    bool same =
        it != old.end() ? d.exists(f.file.path) : unchanged_on_disk(f.file);
    if (same)
      ::unlink(f.temp_path.c_str());
    else
      to_rename.push_back(&f);
  }
  const bool entry_same = unchanged_on_disk(entry_file->file);

  std::vector<published_file> fresh;
  for (const auto& f : files) fresh.push_back(f.file);
  auto manifest =
      stage_write(b.path(manifest_name_),
                  manifest_json(entry, fresh).dump(1) + "\n", token_);
  if (!manifest) return manifest.err();
  temporaries_.push_back(manifest->temp);

  json old_names = json::array();
  for (const auto& f : current_) old_names.push_back(f.path);
  json late_names = json::array();
  for (const staged_file* f : late) {
    const std::size_t slash = f->temp_path.rfind('/');
    late_names.push_back(
        {{"path", f->file.path}, {"temp", f->temp_path.substr(slash + 1)}});
  }
  json journal = {{"sitemill_journal", 1},
                  {"entry", entry},
                  {"entry_digest", detail::to_hex(entry_file->file.digest)},
                  {"new", manifest_json(entry, fresh)["files"]},
                  {"old", std::move(old_names)},
                  {"late", std::move(late_names)}};
  if (status s = b.write_json(journal_name_, journal); !s) return s;
  step(publish_step::journal_written);

  // The window: new children take their final names, then the entry.
  std::vector<std::string> renamed;
  for (const staged_file* f : to_rename) {
    if (status s = d.rename(f->temp_path, f->file.path); !s) {
      undo(renamed);
      return s;
    }
    if (!old.count(f->file.path)) renamed.push_back(f->file.path);
    step(publish_step::child_renamed);
  }
  if (status s = d.sync(); !s) {
    undo(renamed);
    return s;
  }
  step(publish_step::children_renamed);

  // The commit point: one rename replaces the entry the world fetches.
  if (entry_same) {
    ::unlink(entry_file->temp_path.c_str());
  } else if (status s = d.rename(entry_file->temp_path, entry); !s) {
    undo(renamed);
    return s;
  }
  // From here the new set is live; a failure leaves the journal, and the
  // next run completes the publish.
  if (status s = d.sync(); !s) return s;
  step(publish_step::entry_renamed);

  // The fixed-name pages now name the new set's files. A failure here
  // leaves the journal and their temporaries; the next run renames them.
  for (const staged_file* f : late) std::erase(temporaries_, f->temp_path);
  for (const staged_file* f : late)
    if (status s = d.rename(f->temp_path, f->file.path); !s) return s;
  if (!late.empty())
    if (status s = d.sync(); !s) return s;

  if (status s = commit_staged_write(*manifest); !s) return s;
  step(publish_step::manifest_written);

  std::unordered_set<std::string> keep;
  for (const auto& f : fresh) keep.insert(f.path);
  for (const auto& f : current_)
    if (is_safe_name(f.path) && !keep.count(f.path))
      if (status s = d.remove(f.path); !s) return s;
  if (status s = d.sync(); !s) return s;
  step(publish_step::old_removed);

  if (status s = b.remove(journal_name_); !s) return s;
  temporaries_.clear();
  current_ = std::move(fresh);
  current_entry_ = entry;
  return b.sync();
}

}  // namespace sitemill
