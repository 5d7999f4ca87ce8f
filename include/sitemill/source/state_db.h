// sitemill: the state database behind --lastmod content (one SQLite file,
// named by --state).
//
// It remembers, per URL, the hash of the content it last published and the
// lastmod that content got when it was first seen. A run asks lastmod_for()
// about every URL: unchanged content keeps its stored lastmod (so rebuilding
// a site without changes changes nothing), new or changed content gets the
// lastmod the caller offers (the file's modification time). Nothing is
// written until commit_run(), which generate calls only after the new set is
// published, and it writes everything in one transaction: a run that fails,
// is cancelled or is killed leaves the previous state exactly as it was.
//
//   auto db = state_db::open(".sitemill.db");   // creates it if missing
//   db->begin_run();
//   std::string lm = *db->lastmod_for(url, hash, mtime_lastmod);
//   ... publish ...
//   published ? db->commit_run() : db->abandon_run();
//
// Schema (PRAGMA user_version 1, application_id 0x534D494C "SMIL"):
//   urls(url TEXT PRIMARY KEY, content_hash BLOB, lastmod TEXT,
//        first_seen INTEGER, run INTEGER)
//     first_seen: the run the URL was first published in; run: the run its
//     current content hash was first published in.
//   runs(id INTEGER PRIMARY KEY, committed INTEGER, added INTEGER,
//        changed INTEGER, removed INTEGER)   -- committed: Unix seconds
// The journal is SQLite's rollback journal (a -journal file exists only
// while a commit is in progress), with synchronous=FULL.
//
// One state database belongs to one published set: every URL it holds that
// a run does not offer is "removed" at that run's commit.
//
// Not thread-safe: one run, on one thread, at a time. A second process
// opening the same file while a run is in progress gets an error from
// begin_run() rather than waiting.
#ifndef SITEMILL_STATE_DB_H
#define SITEMILL_STATE_DB_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/result.h"
#include "sitemill/html/html_page.h"

struct sqlite3;
struct sqlite3_stmt;

namespace sitemill {

/// URLs that differ between a run and the last committed one, each list
/// sorted by URL bytes.
struct state_changes {
  std::vector<std::string> added;    ///< not in the committed state
  std::vector<std::string> changed;  ///< a different content hash
  std::vector<std::string> removed;  ///< committed, but not offered this run
  bool empty() const noexcept {
    return added.empty() && changed.empty() && removed.empty();
  }
};

class state_db {
 public:
  /// Opens `path`, creating the file and its tables when missing. Fails,
  /// naming the file, when it cannot be opened, is not an SQLite database,
  /// belongs to another program, or was written by a newer sitemill.
  static result<std::unique_ptr<state_db>> open(const std::string& path);
  ~state_db();
  state_db(const state_db&) = delete;
  state_db& operator=(const state_db&) = delete;

  /// Starts a run (takes the database's write lock for the whole run, so
  /// two runs cannot interleave). Fails when a run is already in progress
  /// here or in another process.
  [[nodiscard]] status begin_run();

  /// The lastmod `url` gets this run: the stored one when `hash` is what was
  /// last committed for it, else `fresh_lastmod` (new or changed content),
  /// recorded as pending. A URL offered twice in one run keeps its first
  /// answer (the first record of a URL wins, as in generate). `url` should
  /// be normalised, since it is also what changes() lists. Fails only on
  /// database errors, or outside a run.
  [[nodiscard]] result<std::string> lastmod_for(std::string_view url,
                                                const content_hash& hash,
                                                std::string_view fresh_lastmod);

  /// What the run offered so far differs from the committed state by. After
  /// commit_run(): what it committed; after abandon_run(): nothing.
  [[nodiscard]] result<state_changes> changes();

  /// Makes the run's answers the committed state in one transaction: new
  /// and changed URLs written, URLs not offered deleted, a `runs` row added.
  /// Unchanged URLs are not rewritten. Call only after the publish
  /// succeeded. On failure the run is abandoned and the previous state
  /// stays.
  [[nodiscard]] status commit_run();

  /// Forgets the run; the committed state is untouched. Also done by the
  /// destructor for a run neither committed nor abandoned.
  void abandon_run() noexcept;

  /// Runs committed so far (0 for a new database).
  result<std::int64_t> committed_runs();

  const std::string& path() const noexcept { return path_; }

 private:
  state_db(std::string path, sqlite3* db);
  status exec(const char* sql);
  error db_error(std::string_view what) const;
  status prepare(sqlite3_stmt*& stmt, const char* sql);
  status write_run(const state_changes& found);
  void finalize_run_statements() noexcept;

  std::string path_;
  sqlite3* db_ = nullptr;
  bool in_run_ = false;
  sqlite3_stmt* lookup_ = nullptr;  // committed hash and lastmod of a url
  sqlite3_stmt* seen_ = nullptr;    // this run's answer for a url
  sqlite3_stmt* record_ = nullptr;  // records this run's answer
  state_changes committed_changes_;
  bool have_committed_changes_ = false;
};

}  // namespace sitemill

#endif  // SITEMILL_STATE_DB_H
