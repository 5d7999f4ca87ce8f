// What a publisher repairs when it opens a directory: an earlier build's
// bookkeeping taken over, the temporaries of killed runs removed, and a
// publish that was cut off finished or undone (docs/publishing.md).
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <unordered_map>
#include <unordered_set>

#include "publish/publish_files.h"
#include "sitemill/publish/publish.h"

namespace sitemill {

using detail::dir_ops;
using detail::files_from_json;
using detail::is_safe_name;
using detail::json;
using detail::manifest_json;
using detail::read_and_close;
using detail::sys_error;

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
  for (const dir_ops* at : {&d, &b})
    for (const std::string& name : temp_files_in(at->dir, dead_runs))
      if (!kept_temps.count(name) && at->exists(name))
        if (status s = at->remove(name); !s) return s;

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
  } else if (const auto placed = j->find("placed");
             placed != j->end() && placed->is_array()) {
    // Only what the publish renamed into the directory: a file of the
    // same bytes that was there before it is not the run's to remove.
    for (const auto& name : *placed)
      if (name.is_string() && is_safe_name(name.get<std::string>()) &&
          name.get<std::string>() != entry &&
          !old_names.count(name.get<std::string>()))
        if (status s = d.remove(name.get<std::string>()); !s) return s;
  } else {  // a journal of an earlier build
    for (const auto& f : *fresh)
      if (f.path != entry && !old_names.count(f.path))
        if (status s = d.remove(f.path); !s) return s;
  }
  if (status s = d.sync(); !s) return s;
  if (status s = b.remove(journal_name_); !s) return s;
  return b.sync();
}

}  // namespace sitemill
