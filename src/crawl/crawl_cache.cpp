#include "crawl/crawl_cache.h"

#include <sqlite3.h>

#include <charconv>
#include <cstring>

#include "crawl/crawl_http.h"
#include "detail/digest.h"
#include "detail/sqlite_file.h"

namespace sitemill::detail {
namespace {

constexpr std::int64_t application_id = 0x534D4352;  // "SMCR"
constexpr int schema_version = 2;
// Pages per transaction: a kill loses at most this many pages' work.
constexpr std::size_t batch_pages = 200;

std::string encode_found(const std::vector<page_outcome::link>& found) {
  std::string out;
  for (const auto& l : found) {
    out += l.same_depth ? '1' : '0';
    out += l.href;  // a normalised URL: never a raw newline
    out += '\n';
  }
  return out;
}

std::vector<page_outcome::link> decode_found(std::string_view text) {
  std::vector<page_outcome::link> out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    if (!line.empty())
      out.push_back({std::string(line.substr(1)), line[0] == '1'});
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

// FIELD,ITEM,LENGTH:TEXT for each value, so any text survives.
std::string encode_values(const std::vector<page_outcome::value>& values) {
  std::string out;
  for (const auto& v : values) {
    out += std::to_string(v.field) + ',' + std::to_string(v.item) + ',' +
           std::to_string(v.text.size()) + ':';
    out += v.text;
  }
  return out;
}

bool read_number(std::string_view& text, char end, std::uint64_t& n) {
  const auto [p, ec] =
      std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || p == text.data() + text.size() || *p != end)
    return false;
  text.remove_prefix(static_cast<std::size_t>(p - text.data()) + 1);
  return true;
}

std::vector<page_outcome::value> decode_values(std::string_view text) {
  std::vector<page_outcome::value> out;
  while (!text.empty()) {
    std::uint64_t field = 0, item = 0, size = 0;
    if (!read_number(text, ',', field) || !read_number(text, ',', item) ||
        !read_number(text, ':', size) || size > text.size())
      return {};  // damaged: as if none
    out.push_back({static_cast<extension_field_id>(field),
                   static_cast<std::uint32_t>(item),
                   std::string(text.substr(0, size))});
    text.remove_prefix(size);
  }
  return out;
}

std::string column_text(sqlite3_stmt* s, int i) {
  const auto* p = sqlite3_column_text(s, i);
  return p == nullptr
             ? std::string()
             : std::string(
                   reinterpret_cast<const char*>(p),
                   static_cast<std::size_t>(sqlite3_column_bytes(s, i)));
}

// LENGTH:TEXT, so no text can pass for another field.
void add_field(std::string& out, std::string_view text) {
  out += std::to_string(text.size());
  out += ':';
  out += text;
}

constexpr std::string_view render_key = "render=";
constexpr std::string_view credentials_key = "credentials=";
constexpr std::string_view user_agent_key = "user-agent=";

}  // namespace

crawl_kind crawl_kind::of(const crawl_options& o) {
  crawl_kind k;
  k.render = o.render;
  k.user_agent = crawl_user_agent(o);
  const site_credentials& c = o.credentials;
  if (c.empty()) return k;
  std::string all;
  for (const auto& [name, value] : c.headers) {
    all += 'h';
    add_field(all, name);
    add_field(all, value);
  }
  // A cookie's expiry is not what the site answers by.
  for (const http_cookie& cookie : c.cookies) {
    all += 'c';
    add_field(all, cookie.domain);
    all += cookie.include_subdomains ? '1' : '0';
    add_field(all, cookie.path);
    all += cookie.secure ? '1' : '0';
    add_field(all, cookie.name);
    add_field(all, cookie.value);
  }
  if (!c.user.empty()) {
    all += 'u';
    add_field(all, c.user);
    add_field(all, c.password);
  }
  // Once per crawl: 100,000 rounds take tens of milliseconds here, and as
  // many for each guess made from a copy of the state file.
  k.credentials =
      hex_of(as_view(pbkdf2_sha256(all, "sitemill crawl kind", 100'000)));
  return k;
}

std::string crawl_kind::text() const {
  // The user agent last: whatever it holds, the rest of the text is its.
  return std::string(render_key) + (render ? "on" : "off") + '\n' +
         std::string(credentials_key) + credentials + '\n' +
         std::string(user_agent_key) + user_agent;
}

crawl_kind crawl_kind::from_text(std::string_view text) {
  crawl_kind k;
  auto line = [&](std::string_view key) -> std::optional<std::string_view> {
    if (!text.starts_with(key)) return std::nullopt;
    text.remove_prefix(key.size());
    const std::size_t nl = text.find('\n');
    const std::string_view value = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    return value;
  };
  const auto render = line(render_key);
  const auto credentials = line(credentials_key);
  if (!render || !credentials || !text.starts_with(user_agent_key))
    return {};
  k.render = *render == "on";
  k.credentials = std::string(*credentials);
  k.user_agent = std::string(text.substr(user_agent_key.size()));
  return k;
}

std::string crawl_kind::changes_since(const crawl_kind& before) const {
  std::string out;
  auto add = [&](const std::string& what) {
    out += out.empty() ? "" : "; ";
    out += what;
  };
  if (render != before.render)
    add(render ? "rendering was off, is on" : "rendering was on, is off");
  if (user_agent != before.user_agent)
    add("the user agent was `" + before.user_agent + "`");
  if (credentials != before.credentials)
    add(before.credentials.empty() ? "no credentials were sent, some are"
        : credentials.empty()      ? "credentials were sent, none are"
                                   : "other credentials were sent");
  return out;
}

error crawl_cache::db_error(std::string_view what) const {
  return error{"crawl cache " + path_ + ": " + std::string(what) + ": " +
               sqlite3_errmsg(db_)};
}

status crawl_cache::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    return error{"crawl cache " + path_ + ": " + why};
  }
  return {};
}

result<std::unique_ptr<crawl_cache>> crawl_cache::open(
    const std::string& path) {
  auto opened = open_sqlite_file(path, "crawl cache", 2000);
  if (!opened) return opened.err();
  sqlite3* raw = *opened;
  std::unique_ptr<crawl_cache> c(new crawl_cache(path, raw));
  // WAL: each batch's commit is one sequential write, and a kill -9 loses
  // nothing committed.
  if (status s = c->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
      !s)
    return s.err();
  sqlite3_stmt* check = nullptr;
  if (sqlite3_prepare_v2(raw, "PRAGMA application_id", -1, &check, nullptr) !=
      SQLITE_OK)
    return c->db_error("not a crawl cache");
  std::int64_t app = 0;
  if (sqlite3_step(check) == SQLITE_ROW) app = sqlite3_column_int64(check, 0);
  sqlite3_finalize(check);
  if (app != 0 && app != application_id)
    return error{"crawl cache " + path + " belongs to another program"};
  sqlite3_stmt* version = nullptr;
  if (sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &version, nullptr) !=
      SQLITE_OK)
    return c->db_error("not a crawl cache");
  std::int64_t was = 0;
  if (sqlite3_step(version) == SQLITE_ROW)
    was = sqlite3_column_int64(version, 0);
  sqlite3_finalize(version);
  // Version 1 had no kinds: its rows get none, so they are of no crawl's
  // kind, and each page is fetched in full once.
  if (app == application_id && was == 1) {
    if (status s = c->exec("ALTER TABLE crawls ADD COLUMN kind TEXT;"
                           "ALTER TABLE pages ADD COLUMN kind TEXT;");
        !s)
      return s.err();
  }
  const std::string create =
      "CREATE TABLE IF NOT EXISTS crawls(start TEXT PRIMARY KEY, id INTEGER, "
      "finished INTEGER, kind TEXT);"
      "CREATE TABLE IF NOT EXISTS pages(url TEXT PRIMARY KEY, crawl INTEGER, "
      "etag TEXT, last_modified TEXT, verdict TEXT, lastmod TEXT, hash BLOB, "
      "found TEXT, extensions TEXT, kind TEXT);"
      "PRAGMA application_id=" +
      std::to_string(application_id) +
      ";PRAGMA user_version=" + std::to_string(schema_version) + ";";
  if (status s = c->exec(create.c_str()); !s) return s.err();
  if (sqlite3_prepare_v2(raw,
                         "SELECT crawl, etag, last_modified, verdict, lastmod, "
                         "hash, found, extensions, kind FROM pages "
                         "WHERE url = ?",
                         -1, &c->find_, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(
          raw,
          "INSERT OR REPLACE INTO pages(url, crawl, etag, last_modified, "
          "verdict, lastmod, hash, found, extensions, kind) "
          "VALUES(?,?,?,?,?,?,?,?,?,?)",
          -1, &c->put_, nullptr) != SQLITE_OK)
    return c->db_error("cannot prepare");
  return c;
}

crawl_cache::~crawl_cache() {
  (void)flush();
  sqlite3_finalize(find_);
  sqlite3_finalize(put_);
  sqlite3_close(db_);
}

result<std::uint64_t> crawl_cache::begin(std::string_view start,
                                         const crawl_kind& kind,
                                         bool& resuming, std::string& changed) {
  const std::string kind_text = kind.text();
  // The pages' column: a digest of the kind, short (one per row).
  kind_ = hex_of(as_view(sha256(kind_text))).substr(0, 16);
  changed.clear();
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db_,
                         "SELECT id, finished, kind FROM crawls WHERE start = ?",
                         -1, &s, nullptr) != SQLITE_OK)
    return db_error("cannot read crawls");
  sqlite3_bind_text(s, 1, start.data(), static_cast<int>(start.size()),
                    SQLITE_TRANSIENT);
  std::uint64_t id = 0;
  bool finished = true, same_kind = true;
  if (sqlite3_step(s) == SQLITE_ROW) {
    id = static_cast<std::uint64_t>(sqlite3_column_int64(s, 0));
    finished = sqlite3_column_int64(s, 1) != 0;
    const std::string was = column_text(s, 2);
    same_kind = was == kind_text;
    // A row of no kind (a version 1 file) is told nothing of.
    if (!same_kind && !was.empty())
      changed = kind.changes_since(crawl_kind::from_text(was));
  }
  sqlite3_finalize(s);
  resuming = id != 0 && !finished && same_kind;
  if (resuming) return id;
  // A new crawl's id is past every id any page holds.
  sqlite3_stmt* m = nullptr;
  if (sqlite3_prepare_v2(db_, "SELECT MAX(crawl) FROM pages", -1, &m,
                         nullptr) != SQLITE_OK)
    return db_error("cannot read pages");
  std::uint64_t top = id;
  if (sqlite3_step(m) == SQLITE_ROW)
    top = std::max<std::uint64_t>(
        top, static_cast<std::uint64_t>(sqlite3_column_int64(m, 0)));
  sqlite3_finalize(m);
  const std::uint64_t next = top + 1;
  sqlite3_stmt* w = nullptr;
  if (sqlite3_prepare_v2(db_,
                         "INSERT OR REPLACE INTO crawls(start, id, finished, "
                         "kind) VALUES(?, ?, 0, ?)",
                         -1, &w, nullptr) != SQLITE_OK)
    return db_error("cannot write crawls");
  sqlite3_bind_text(w, 1, start.data(), static_cast<int>(start.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_int64(w, 2, static_cast<sqlite3_int64>(next));
  sqlite3_bind_text(w, 3, kind_text.data(), static_cast<int>(kind_text.size()),
                    SQLITE_TRANSIENT);
  const int rc = sqlite3_step(w);
  sqlite3_finalize(w);
  if (rc != SQLITE_DONE) return db_error("cannot write crawls");
  return next;
}

result<std::optional<cached_page>> crawl_cache::find(std::string_view url) {
  sqlite3_reset(find_);
  sqlite3_bind_text(find_, 1, url.data(), static_cast<int>(url.size()),
                    SQLITE_TRANSIENT);
  const int rc = sqlite3_step(find_);
  if (rc == SQLITE_DONE) return std::optional<cached_page>();
  if (rc != SQLITE_ROW) return db_error("cannot read a page");
  // Judged by a crawl of another kind: what it said is not this crawl's.
  if (column_text(find_, 8) != kind_) return std::optional<cached_page>();
  cached_page p;
  p.crawl = static_cast<std::uint64_t>(sqlite3_column_int64(find_, 0));
  p.etag = column_text(find_, 1);
  p.last_modified = column_text(find_, 2);
  p.outcome.verdict = column_text(find_, 3);
  p.outcome.lastmod = column_text(find_, 4);
  if (sqlite3_column_bytes(find_, 5) == 16) {
    content_hash h;
    std::memcpy(&h.high, sqlite3_column_blob(find_, 5), 8);
    std::memcpy(&h.low,
                static_cast<const char*>(sqlite3_column_blob(find_, 5)) + 8, 8);
    p.outcome.hash = h;
  }
  p.outcome.found = decode_found(column_text(find_, 6));
  p.outcome.extensions = decode_values(column_text(find_, 7));
  return std::optional<cached_page>(std::move(p));
}

status crawl_cache::put(std::string_view url, const cached_page& page) {
  if (!in_batch_) {
    if (status s = exec("BEGIN"); !s) return s;
    in_batch_ = true;
  }
  sqlite3_reset(put_);
  const std::string found = encode_found(page.outcome.found);
  const std::string values = encode_values(page.outcome.extensions);
  char hash[16];
  sqlite3_bind_text(put_, 1, url.data(), static_cast<int>(url.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_int64(put_, 2, static_cast<sqlite3_int64>(page.crawl));
  sqlite3_bind_text(put_, 3, page.etag.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(put_, 4, page.last_modified.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(put_, 5, page.outcome.verdict.c_str(), -1,
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(put_, 6, page.outcome.lastmod.c_str(), -1,
                    SQLITE_TRANSIENT);
  if (page.outcome.hash) {
    std::memcpy(hash, &page.outcome.hash->high, 8);
    std::memcpy(hash + 8, &page.outcome.hash->low, 8);
    sqlite3_bind_blob(put_, 7, hash, 16, SQLITE_TRANSIENT);
  } else {
    sqlite3_bind_null(put_, 7);
  }
  sqlite3_bind_text(put_, 8, found.data(), static_cast<int>(found.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(put_, 9, values.data(), static_cast<int>(values.size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_text(put_, 10, kind_.data(), static_cast<int>(kind_.size()),
                    SQLITE_TRANSIENT);
  if (sqlite3_step(put_) != SQLITE_DONE) return db_error("cannot write a page");
  if (++batched_ >= batch_pages) return flush();
  return {};
}

status crawl_cache::flush() {
  batched_ = 0;
  if (!in_batch_) return {};
  in_batch_ = false;
  return exec("COMMIT");
}

status crawl_cache::finish(std::string_view start) {
  if (status s = flush(); !s) return s;
  sqlite3_stmt* w = nullptr;
  if (sqlite3_prepare_v2(db_, "UPDATE crawls SET finished = 1 WHERE start = ?",
                         -1, &w, nullptr) != SQLITE_OK)
    return db_error("cannot write crawls");
  sqlite3_bind_text(w, 1, start.data(), static_cast<int>(start.size()),
                    SQLITE_TRANSIENT);
  const int rc = sqlite3_step(w);
  sqlite3_finalize(w);
  if (rc != SQLITE_DONE) return db_error("cannot write crawls");
  return {};
}

}  // namespace sitemill::detail
