#include "sitemill/source/state_db.h"

#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>

#include "detail/sqlite_file.h"

namespace sitemill {
namespace {

constexpr int schema_version = 1;
// "SMIL": marks the file as sitemill's, so a database of some other program
// given to --state by mistake is refused rather than written into.
constexpr std::int64_t application_id = 0x534D494C;
// How long begin_run() waits for another process's commit to finish before
// saying the file is in use.
constexpr int busy_timeout_ms = 2000;

// Pending answers of the current run: status 0 unchanged, 1 added,
// 2 changed. A temporary table, so it never reaches the file, and memory
// does not grow with the site (SQLite spills it to a temporary file).
constexpr const char* create_seen_sql =
    "CREATE TEMP TABLE IF NOT EXISTS seen(url TEXT PRIMARY KEY, "
    "content_hash BLOB, lastmod TEXT, status INTEGER NOT NULL)";
constexpr int unchanged = 0, added = 1, changed = 2;

constexpr const char* schema_sql =
    "CREATE TABLE IF NOT EXISTS urls(url TEXT PRIMARY KEY, content_hash BLOB, "
    "lastmod TEXT, first_seen INTEGER, run INTEGER);"
    "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, committed "
    "INTEGER, added INTEGER, changed INTEGER, removed INTEGER);";

// The hash as 16 big-endian bytes: the BLOB reads the same in any tool.
void to_bytes(const content_hash& h, unsigned char (&out)[16]) noexcept {
  for (int i = 0; i < 8; ++i) {
    out[i] = static_cast<unsigned char>(h.high >> (56 - 8 * i));
    out[8 + i] = static_cast<unsigned char>(h.low >> (56 - 8 * i));
  }
}

std::string column_text(sqlite3_stmt* stmt, int column) {
  const unsigned char* text = sqlite3_column_text(stmt, column);
  if (text == nullptr) return {};
  return std::string(
      reinterpret_cast<const char*>(text),
      static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
}

// Resets a statement on every path out of a scope, so no statement is left
// active (an active statement would make COMMIT fail).
class reset_on_exit {
 public:
  explicit reset_on_exit(sqlite3_stmt* stmt) : stmt_(stmt) {}
  ~reset_on_exit() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  reset_on_exit(const reset_on_exit&) = delete;
  reset_on_exit& operator=(const reset_on_exit&) = delete;

 private:
  sqlite3_stmt* stmt_;
};

}  // namespace

state_db::state_db(std::string path, sqlite3* db)
    : path_(std::move(path)), db_(db) {}

state_db::~state_db() {
  abandon_run();
  sqlite3_close_v2(db_);
}

error state_db::db_error(std::string_view what) const {
  std::string message = "state database " + path_ + ": ";
  message.append(what);
  message.append(": ");
  message.append(sqlite3_errmsg(db_));
  return error{std::move(message)};
}

status state_db::exec(const char* sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) {
    return db_error(sql);
  }
  return {};
}

status state_db::prepare(sqlite3_stmt*& stmt, const char* sql) {
  if (sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt,
                         nullptr) != SQLITE_OK) {
    return db_error("cannot prepare a statement");
  }
  return {};
}

result<std::unique_ptr<state_db>> state_db::open(const std::string& path) {
  auto opened =
      detail::open_sqlite_file(path, "state database", busy_timeout_ms);
  if (!opened) return opened.err();
  sqlite3* raw = *opened;
  std::unique_ptr<state_db> db(new state_db(path, raw));

  // Reading the header is the first access to the file: a file that is not
  // SQLite fails here.
  auto pragma_int = [&](const char* sql) -> result<std::int64_t> {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(raw, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      return error{"state database " + path +
                   " is not a sitemill state database (" + sqlite3_errmsg(raw) +
                   ")"};
    }
    std::int64_t value = 0;
    const int step = sqlite3_step(stmt);
    if (step == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    if (step != SQLITE_ROW && step != SQLITE_DONE) {
      return error{"state database " + path +
                   " is not a sitemill state database (" +
                   sqlite3_errstr(step) + ")"};
    }
    return value;
  };
  auto version = pragma_int("PRAGMA user_version");
  if (!version) return std::move(version).err();
  auto app = pragma_int("PRAGMA application_id");
  if (!app) return std::move(app).err();
  auto tables = pragma_int("SELECT count(*) FROM sqlite_schema");
  if (!tables) return std::move(tables).err();

  if (*version > schema_version) {
    return error{"state database " + path +
                 " was written by a newer sitemill "
                 "(schema " +
                 std::to_string(*version) + "); upgrade sitemill"};
  }
  if ((*app != 0 && *app != application_id) || (*app == 0 && *tables != 0)) {
    return error{
        "state database " + path +
            " belongs to another program; point `state_path` at a new file",
        "state_path"};
  }
  // A rollback journal keeps the state in one file between runs (WAL would
  // leave -wal and -shm files beside it); FULL makes a commit durable.
  if (status s =
          db->exec("PRAGMA journal_mode=DELETE; PRAGMA synchronous=FULL");
      !s) {
    return s.err();
  }
  if (*version == 0) {
    const std::string create =
        std::string("BEGIN IMMEDIATE;") + schema_sql +
        "PRAGMA application_id=" + std::to_string(application_id) +
        ";PRAGMA user_version=" + std::to_string(schema_version) + ";COMMIT;";
    if (sqlite3_exec(raw, create.c_str(), nullptr, nullptr, nullptr) !=
        SQLITE_OK) {
      error e = db->db_error("cannot create the tables");
      sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
      return e;
    }
  }
  return db;
}

status state_db::begin_run() {
  if (in_run_)
    return error{"state database " + path_ + ": a run is already in progress"};
  abandon_run();  // forget the change lists of a finished run
  // IMMEDIATE takes the write lock now: a second sitemill run on the same
  // state fails here, at the start, instead of at its commit.
  if (sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) !=
      SQLITE_OK) {
    const int code = sqlite3_errcode(db_) & 0xFF;
    if (code == SQLITE_BUSY || code == SQLITE_LOCKED) {
      return error{"state database " + path_ +
                   " is in use by another sitemill run"};
    }
    return db_error("cannot start a run");
  }
  in_run_ = true;
  status s = exec(create_seen_sql);
  if (s) s = exec("DELETE FROM temp.seen");
  if (s) {
    s = prepare(lookup_,
                "SELECT content_hash, lastmod FROM main.urls WHERE url = ?1");
  }
  if (s) s = prepare(seen_, "SELECT lastmod FROM temp.seen WHERE url = ?1");
  if (s) {
    s = prepare(record_,
                "INSERT INTO temp.seen(url, content_hash, lastmod, status) "
                "VALUES(?1, ?2, ?3, ?4)");
  }
  if (!s) abandon_run();
  return s;
}

result<std::string> state_db::lastmod_for(std::string_view url,
                                          const content_hash& hash,
                                          std::string_view fresh_lastmod) {
  if (!in_run_)
    return error{"state database " + path_ + ": no run in progress"};
  const auto url_size = static_cast<int>(url.size());
  {
    reset_on_exit reset(seen_);
    sqlite3_bind_text(seen_, 1, url.data(), url_size, SQLITE_STATIC);
    const int rc = sqlite3_step(seen_);
    if (rc == SQLITE_ROW) return column_text(seen_, 0);
    if (rc != SQLITE_DONE) return db_error("cannot read this run's URLs");
  }
  unsigned char bytes[16];
  to_bytes(hash, bytes);
  int state = added;
  std::string lastmod(fresh_lastmod);
  {
    reset_on_exit reset(lookup_);
    sqlite3_bind_text(lookup_, 1, url.data(), url_size, SQLITE_STATIC);
    const int rc = sqlite3_step(lookup_);
    if (rc == SQLITE_ROW) {
      const void* stored = sqlite3_column_blob(lookup_, 0);
      const bool same = sqlite3_column_bytes(lookup_, 0) == 16 &&
                        std::memcmp(stored, bytes, 16) == 0;
      state = same ? unchanged : changed;
      if (same) lastmod = column_text(lookup_, 1);
    } else if (rc != SQLITE_DONE) {
      return db_error("cannot read the stored URLs");
    }
  }
  reset_on_exit reset(record_);
  sqlite3_bind_text(record_, 1, url.data(), url_size, SQLITE_STATIC);
  sqlite3_bind_blob(record_, 2, bytes, 16, SQLITE_STATIC);
  sqlite3_bind_text(record_, 3, lastmod.data(),
                    static_cast<int>(lastmod.size()), SQLITE_STATIC);
  sqlite3_bind_int(record_, 4, state);
  if (sqlite3_step(record_) != SQLITE_DONE) {
    return db_error("cannot record a URL");
  }
  return lastmod;
}

result<state_changes> state_db::changes() {
  if (have_committed_changes_) return committed_changes_;
  state_changes out;
  if (!in_run_) return out;
  auto list = [&](const char* sql, std::vector<std::string>& into) -> status {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      return db_error("cannot list changes");
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      into.push_back(column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE) return db_error("cannot list changes");
    return {};
  };
  status s = list("SELECT url FROM temp.seen WHERE status = 1 ORDER BY url",
                  out.added);
  if (s) {
    s = list("SELECT url FROM temp.seen WHERE status = 2 ORDER BY url",
             out.changed);
  }
  if (s) {
    s = list(
        "SELECT url FROM main.urls WHERE url NOT IN (SELECT url FROM "
        "temp.seen) ORDER BY url",
        out.removed);
  }
  if (!s) return s.err();
  return out;
}

status state_db::commit_run() {
  if (!in_run_) {
    return error{"state database " + path_ + ": no run in progress"};
  }
  // Any failure ends the run: the transaction is rolled back, so the
  // previous state stays and a retry cannot see half a commit.
  auto found = changes();
  status s = found ? write_run(*found) : status(std::move(found).err());
  if (s) s = exec("COMMIT");
  if (!s) {
    abandon_run();
    return s;
  }
  in_run_ = false;
  committed_changes_ = std::move(*found);
  have_committed_changes_ = true;
  return {};
}

status state_db::write_run(const state_changes& found) {
  sqlite3_stmt* run = nullptr;
  if (status s = prepare(run,
                         "INSERT INTO main.runs(committed, added, changed, "
                         "removed) VALUES(?1, ?2, ?3, ?4)");
      !s) {
    return s;
  }
  sqlite3_bind_int64(run, 1, static_cast<std::int64_t>(std::time(nullptr)));
  sqlite3_bind_int64(run, 2, static_cast<std::int64_t>(found.added.size()));
  sqlite3_bind_int64(run, 3, static_cast<std::int64_t>(found.changed.size()));
  sqlite3_bind_int64(run, 4, static_cast<std::int64_t>(found.removed.size()));
  const int rc = sqlite3_step(run);
  sqlite3_finalize(run);
  if (rc != SQLITE_DONE) return db_error("cannot record the run");
  const std::string run_id = std::to_string(sqlite3_last_insert_rowid(db_));
  // Unchanged URLs are not rewritten: a rerun without changes writes one
  // `runs` row and nothing else.
  const std::string write =
      "DELETE FROM main.urls WHERE url NOT IN (SELECT url FROM temp.seen);"
      "INSERT INTO main.urls(url, content_hash, lastmod, first_seen, run) "
      "SELECT url, content_hash, lastmod, " +
      run_id + ", " + run_id +
      " FROM temp.seen WHERE status <> 0 ON CONFLICT(url) DO UPDATE SET "
      "content_hash = excluded.content_hash, lastmod = excluded.lastmod, "
      "run = excluded.run;"
      "DELETE FROM temp.seen;";
  if (status s = exec(write.c_str()); !s) return s;
  // COMMIT fails while a statement is active; these are done with anyway.
  finalize_run_statements();
  return {};
}

void state_db::finalize_run_statements() noexcept {
  for (sqlite3_stmt** stmt : {&lookup_, &seen_, &record_}) {
    sqlite3_finalize(*stmt);
    *stmt = nullptr;
  }
}

void state_db::abandon_run() noexcept {
  finalize_run_statements();
  if (in_run_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  in_run_ = false;
  committed_changes_ = {};
  have_committed_changes_ = false;
}

result<std::int64_t> state_db::committed_runs() {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT count(*) FROM main.runs", -1, &stmt,
                         nullptr) != SQLITE_OK) {
    return db_error("cannot count runs");
  }
  std::int64_t n = 0;
  const int rc = sqlite3_step(stmt);
  if (rc == SQLITE_ROW) n = sqlite3_column_int64(stmt, 0);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW) return db_error("cannot count runs");
  return n;
}

}  // namespace sitemill
