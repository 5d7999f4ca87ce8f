#include "sitemill/publish/publish.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <unordered_map>
#include <unordered_set>

#include "detail/text.h"
#include "publish/publish_files.h"

namespace sitemill {

using detail::dir_ops;
using detail::is_safe_name;
using detail::json;
using detail::manifest_json;

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
    case publish_step::bucket_request:
      return "bucket_request";
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

std::string publisher::temp_path(std::string_view name) {
  std::string p = dir_ + "/" +
                  temp_file_name(token_, std::to_string(temp_counter_++) + "-" +
                                             std::string(name));
  temporaries_ = true;
  if (after_step_) after_step_(publish_step::temporary_created);
  return p;
}

void publisher::discard_temporaries() noexcept {
  if (!temporaries_) return;
  const std::string tokens[] = {token_};
  for (const std::string* dir : {&dir_, &book_dir_}) {
    if (dir == &book_dir_ && book_dir_ == dir_) break;
    try {
      for (const std::string& name : temp_files_in(*dir, tokens))
        if (!kept_temporaries_.count(name))
          ::unlink((*dir + "/" + name).c_str());
    } catch (...) {  // out of memory listing them: the next run removes them
    }
  }
  temporaries_ = false;
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
  // A child keeps its name only while its bytes stay the same; a different
  // digest under an old name would change the live set before the commit.
  auto checked = detail::check_staged_files(files, entry, current_);
  if (!checked) return checked.err();
  const staged_file* entry_file = *checked;
  std::unordered_map<std::string, const published_file*> old;  // the live set's files
  for (const auto& f : current_) old[f.path] = &f;

  auto step = [&](publish_step s) {
    if (after_step_) after_step_(s);
  };
  auto unchanged_on_disk = [&](const published_file& f) {
    if (!d.exists(f.path)) return false;
    auto digest = file_digest_of(d.path(f.path));
    return digest && *digest == f.digest;
  };
  // A file in the directory that the manifest does not list is not
  // sitemill's, whatever its name (a site's own sitemap.html, a file that
  // happens to carry a new child's name): never replaced, so never removed
  // by a rollback either. Only the very bytes about to be published under
  // that name (a set whose manifest was lost) are taken as they are. The
  // entry is the one exception (docs/publishing.md): the set must be
  // submitted by its name, and the caller warns when it replaces one.
  for (const auto& f : files)
    if (f.file.path != entry && !old.count(f.file.path) &&
        d.present(f.file.path) && !unchanged_on_disk(f.file))
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
  temporaries_ = true;  // the manifest's, in the bookkeeping directory

  json old_names = json::array();
  for (const auto& f : current_) old_names.push_back(f.path);
  // The names this publish brings into the directory: the only ones a
  // recovery that finds the commit undone may remove.
  json placed = json::array();
  for (const staged_file* f : to_rename)
    if (!old.count(f->file.path)) placed.push_back(f->file.path);
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
                  {"placed", std::move(placed)},
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
  for (const staged_file* f : late)
    kept_temporaries_.insert(f->temp_path.substr(f->temp_path.rfind('/') + 1));
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
  temporaries_ = false;  // each renamed, or removed as unchanged
  kept_temporaries_.clear();
  current_ = std::move(fresh);
  current_entry_ = entry;
  return b.sync();
}

}  // namespace sitemill
