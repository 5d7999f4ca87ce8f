#include "publish/bucket_publisher.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <set>

#include "detail/text.h"
#include "publish/publish_files.h"

namespace sitemill::detail {
namespace {

// A lock object outlives a run killed without a word from this machine's
// point of view only this long: past it, the next run takes it over. Kept
// fresh while a run publishes (keep_lock()).
constexpr std::chrono::seconds kLockLife{15 * 60};
constexpr std::chrono::seconds kLockRefresh{5 * 60};

long long unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

result<std::string> read_whole(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return error{sys_error("cannot open", path, errno)};
  return read_and_close(fd, path);
}

std::uint64_t digest_of(std::string_view bytes) {
  return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace

std::string bucket_bookkeeping_prefix(std::string_view prefix) {
  if (prefix.empty()) return ".sitemill/";
  std::string_view inner = prefix.substr(0, prefix.size() - 1);
  const std::size_t slash = inner.rfind('/');
  if (slash == std::string_view::npos)
    return ".sitemill/" + std::string(prefix);
  return std::string(inner.substr(0, slash + 1)) + ".sitemill/" +
         std::string(prefix.substr(slash + 1));
}

std::string_view content_type_of(std::string_view name) noexcept {
  if (name.ends_with(".gz")) return "application/gzip";
  if (name.ends_with(".xml")) return "application/xml";
  if (name.ends_with(".txt")) return "text/plain; charset=utf-8";
  if (name.ends_with(".xsl")) return "text/xsl";
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".json")) return "application/json";
  return "application/octet-stream";
}

bucket_publisher::bucket_publisher(store::s3_config config,
                                   store::s3_location where, std::string set,
                                   const bucket_options& options,
                                   std::function<void(publish_step)> after_step)
    : where_(where),
      url_("s3://" + where.bucket + "/" + where.prefix),
      book_(bucket_bookkeeping_prefix(where.prefix)),
      set_(std::move(set)),
      options_(options),
      after_step_(std::move(after_step)),
      client_(std::move(config), std::move(where), options.http,
              options.retry) {
  client_.after_request = [this](const store::s3_exchange& e) {
    ++requests_[e.method];
    step(publish_step::bucket_request);
  };
}

bucket_publisher::~bucket_publisher() {
  if (!locked_) return;
  // Only our own lock: a run that found it expired may have taken it over.
  auto held = client_.get(book(lock_file_name));
  if (!held || !held->has_value()) return;
  json j = json::parse(**held, nullptr, false);
  if (j.is_object() && j.value("token", std::string()) == token_)
    (void)client_.remove(book(lock_file_name));
}

error bucket_publisher::refused(const std::string& what, const error& e) const {
  return error{"`out_dir` " + url_ + ": " + what + ": " + e.message, "out_dir"};
}

result<std::unique_ptr<bucket_publisher>> bucket_publisher::open(
    const std::string& out, const std::string& set,
    const bucket_options& options, std::function<void(publish_step)> after_step,
    const store::env_reader& env) {
  auto where = store::parse_s3_url(out);
  if (!where) return where.err();
  auto config = store::resolve_s3_config(env);
  if (!config)
    return error{"`out_dir` " + out + ": " + config.err().message, "out_dir"};
  std::unique_ptr<bucket_publisher> p(
      new bucket_publisher(std::move(*config), std::move(*where), set, options,
                           std::move(after_step)));
  if (status s = p->take_lock(); !s) return s.err();
  if (status s = p->recover(); !s) return s.err();
  if (status s = p->read_manifest(); !s) return s.err();
  auto listed = p->client_.list(p->where_.prefix + set);
  if (!listed) return p->refused("cannot list the set", listed.err());
  for (const store::s3_object& o : *listed) p->listed_[o.key] = o.size;
  return p;
}

status bucket_publisher::take_lock() {
  const std::string lock = book(lock_file_name);
  const json body = {{"sitemill_lock", 1},
                     {"token", token_},
                     {"host", host_name()},
                     {"pid", static_cast<long long>(::getpid())},
                     {"expires", unix_now() + kLockLife.count()}};
  for (int attempt = 0; attempt < 3; ++attempt) {
    // Looked at first: a server without conditional writes (If-None-Match
    // is recent in S3 and missing from some compatible servers) would let
    // the create below replace a live run's lock.
    auto held = client_.get(lock);
    if (!held) return refused("cannot read the lock", held.err());
    if (held->has_value()) {
      json j = json::parse(**held, nullptr, false);
      const bool lock_json = j.is_object();
      const long long expires = lock_json ? j.value("expires", 0LL) : 0;
      const long long pid = lock_json ? j.value("pid", 0LL) : 0;
      // A run of this machine that is gone left it: no need to wait.
      const bool dead_here =
          lock_json && !host_name().empty() &&
          j.value("host", std::string()) == host_name() && pid > 0 &&
          ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
      if (lock_json && expires > unix_now() && !dead_here)
        return error{"`out_dir` " + url_ +
                         ": another sitemill run holds its lock (" +
                         client_.url_of(lock) + ", run " +
                         j.value("token", std::string("?")) + " on " +
                         j.value("host", std::string("?")) + ", for " +
                         std::to_string(expires - unix_now()) +
                         " s more); wait for it to end",
                     "out_dir"};
      if (status s = client_.remove(lock); !s)
        return refused("cannot remove a stale lock", s.err());
    }
    auto put = client_.put(lock, body.dump() + "\n",
                           {"application/json", "no-store", true});
    if (!put) return refused("cannot take the lock", put.err());
    if (*put == store::s3_put_outcome::exists) continue;  // another run's
    // Read back: where two runs created it at once on a server that
    // ignores If-None-Match, the later one's token is there.
    auto back = client_.get(lock);
    if (!back) return refused("cannot read the lock back", back.err());
    json j = back->has_value() ? json::parse(**back, nullptr, false) : json();
    if (!j.is_object() || j.value("token", std::string()) != token_)
      return error{"`out_dir` " + url_ +
                       ": another sitemill run took the lock (" +
                       client_.url_of(lock) + ") at the same moment",
                   "out_dir"};
    locked_ = true;
    lock_written_ = std::chrono::steady_clock::now();
    return {};
  }
  return error{"`out_dir` " + url_ + ": cannot take the lock " +
                   client_.url_of(lock) + ": another run keeps taking it",
               "out_dir"};
}

status bucket_publisher::keep_lock() {
  if (std::chrono::steady_clock::now() - lock_written_ < kLockRefresh)
    return {};
  const json body = {{"sitemill_lock", 1},
                     {"token", token_},
                     {"host", host_name()},
                     {"pid", static_cast<long long>(::getpid())},
                     {"expires", unix_now() + kLockLife.count()}};
  auto put = client_.put(book(lock_file_name), body.dump() + "\n",
                         {"application/json", "no-store", false});
  if (!put) return refused("cannot renew the lock", put.err());
  lock_written_ = std::chrono::steady_clock::now();
  return {};
}

status bucket_publisher::read_manifest() {
  auto text = client_.get(book(manifest_file_name(set_)));
  if (!text) return refused("cannot read the manifest", text.err());
  if (!text->has_value()) return {};
  const std::string where = client_.url_of(book(manifest_file_name(set_)));
  json j = json::parse(**text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_manifest"))
    return error{"`out_dir` " + url_ + ": " + where +
                     " is not a sitemill manifest; delete it to start afresh "
                     "(old files will then be kept)",
                 "out_dir"};
  auto files = files_from_json(j["files"]);
  if (!files) return error{where + ": " + files.err().message, "out_dir"};
  current_ = std::move(*files);
  current_entry_ = j.value("entry", std::string());
  if (j.contains("retired") && j["retired"].is_array())
    for (const json& r : j["retired"])
      if (r.is_object() && is_safe_name(r.value("path", std::string())))
        retired_[r.value("path", std::string())] = r.value("until", 0LL);
  return {};
}

status bucket_publisher::recover() {
  const std::string journal_key = book(journal_file_name(set_));
  auto text = client_.get(journal_key);
  if (!text) return refused("cannot read the journal", text.err());
  if (!text->has_value()) return {};
  json j = json::parse(**text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("sitemill_journal"))
    return error{"`out_dir` " + url_ + ": " + client_.url_of(journal_key) +
                     " is not a sitemill journal; delete it to start afresh",
                 "out_dir"};
  const std::string entry = j.value("entry", std::string());
  if (!is_safe_name(entry)) return error{"bad journal entry name", "out_dir"};
  auto live = client_.get(key(entry));
  if (!live) return refused("cannot read the entry", live.err());
  const bool committed =
      live->has_value() &&
      to_hex(digest_of(**live)) == j.value("entry_digest", std::string());
  auto names = [&](const char* field) {
    std::vector<std::string> out;
    if (j.contains(field) && j[field].is_array())
      for (const json& n : j[field])
        if (n.is_string() && is_safe_name(n.get<std::string>()))
          out.push_back(n.get<std::string>());
    return out;
  };
  if (committed) {
    // The killed run's new set is live: finish it.
    if (j.contains("manifest")) {
      auto put = client_.put(book(manifest_file_name(set_)),
                             j["manifest"].dump(1) + "\n",
                             {"application/json", "no-store", false});
      if (!put) return refused("cannot finish a killed publish", put.err());
    }
    for (const std::string& n : names("remove"))
      if (status s = client_.remove(key(n)); !s)
        return refused("cannot finish a killed publish", s.err());
  } else {
    // The old entry is live: the children the killed run brought in are
    // named by nothing.
    for (const std::string& n : names("placed"))
      if (status s = client_.remove(key(n)); !s)
        return refused("cannot undo a killed publish", s.err());
  }
  if (status s = client_.remove(journal_key); !s)
    return refused("cannot remove the journal", s.err());
  return {};
}

status bucket_publisher::publish(std::vector<staged_file> files,
                                 const std::string& entry) {
  auto checked = check_staged_files(files, entry, current_);
  if (!checked) return checked.err();
  std::map<std::string, const published_file*> old;  // the live set's files
  for (const auto& f : current_) old[f.path] = &f;

  // What is in the bucket already, byte for byte: a file the manifest
  // lists with the same digest, there with the size of the new bytes.
  std::vector<std::pair<const staged_file*, std::string>> uploads;
  std::vector<std::pair<const staged_file*, std::string>> late;
  std::string entry_bytes;
  bool entry_same = false;
  std::vector<std::string> placed;
  for (const auto& f : files) {
    auto bytes = read_whole(f.temp_path);
    if (!bytes) return bytes.err();
    const std::string k = key(f.file.path);
    auto it = old.find(f.file.path);
    auto there = listed_.find(k);
    const bool present = there != listed_.end();
    const bool same = it != old.end() && it->second->digest == f.file.digest &&
                      present && there->second == bytes->size();
    if (f.file.path == entry) {
      entry_same = same;
      entry_bytes = std::move(*bytes);
      continue;
    }
    if (same) continue;
    if (present && it == old.end() && !f.fixed_name) {
      // Not sitemill's by the manifest: taken only when it holds these
      // very bytes (a set whose manifest was lost), never replaced.
      auto theirs = client_.get(k);
      if (!theirs) return refused("cannot read " + k, theirs.err());
      if (theirs->has_value() && digest_of(**theirs) == f.file.digest) continue;
      return error{"`out_dir` " + url_ + ": refusing to replace " +
                       client_.url_of(k) +
                       ": sitemill did not write it (no manifest lists it); "
                       "move it away or choose another `name`",
                   "out_dir"};
    }
    if (!present && it == old.end() && !f.fixed_name)
      placed.push_back(f.file.path);
    (f.fixed_name ? late : uploads).emplace_back(&f, std::move(*bytes));
  }

  std::set<std::string> keep;
  for (const auto& f : files) keep.insert(f.file.path);
  // Retired children: deleted now (keep_old 0), or kept until their time.
  const long long now = unix_now();
  std::map<std::string, long long> retired;
  std::vector<std::string> remove;
  for (const auto& f : current_)
    if (!keep.count(f.path)) {
      if (options_.keep_old.count() > 0)
        retired[f.path] = now + options_.keep_old.count();
      else
        remove.push_back(f.path);
    }
  for (const auto& [name, until] : retired_)
    if (!keep.count(name) && !retired.count(name)) {
      if (until <= now)
        remove.push_back(name);
      else
        retired[name] = until;
    }
  if (uploads.empty() && late.empty() && entry_same && remove.empty() &&
      retired == retired_ && current_entry_ == entry &&
      current_.size() == files.size())
    return {};  // the bucket holds this very set: nothing to send

  std::vector<published_file> fresh;
  for (const auto& f : files) fresh.push_back(f.file);
  json manifest = manifest_json(entry, fresh);
  json retired_json = json::array();
  for (const auto& [name, until] : retired)
    retired_json.push_back({{"path", name}, {"until", until}});
  manifest["retired"] = std::move(retired_json);
  json journal = {{"sitemill_journal", 1},
                  {"entry", entry},
                  {"entry_digest", to_hex(digest_of(entry_bytes))},
                  {"placed", placed},
                  {"remove", remove},
                  {"manifest", manifest}};
  auto put = [&](const std::string& k, std::string_view bytes,
                 std::string_view type) -> status {
    if (status s = keep_lock(); !s) return s;
    auto r = client_.put(k, bytes,
                         {std::string(type), options_.cache_control, false});
    if (!r) return refused("cannot publish", r.err());
    return {};
  };
  auto book_put = [&](const std::string& name, const json& j) -> status {
    auto r = client_.put(book(name), j.dump(1) + "\n",
                         {"application/json", "no-store", false});
    if (!r) return refused("cannot publish", r.err());
    return {};
  };
  // A journal first, so that a kill from here on is finished or undone by
  // the next run; nothing the live entry names is touched before the commit.
  if (status s = book_put(journal_file_name(set_), journal); !s) return s;
  step(publish_step::journal_written);
  // A failure before the commit takes back what it brought in, as far as
  // the bucket lets it; what stays, the journal names for the next run.
  std::vector<std::string> brought;
  auto undo = [&](status failed) -> status {
    bool all = true;
    for (const std::string& name : brought)
      all = static_cast<bool>(client_.remove(key(name))) && all;
    if (all) (void)client_.remove(book(journal_file_name(set_)));
    return failed;
  };
  for (const auto& [f, bytes] : uploads) {
    // Named before its PUT: one that failed in transport may be stored.
    if (std::find(placed.begin(), placed.end(), f->file.path) != placed.end())
      brought.push_back(f->file.path);
    if (status s = put(key(f->file.path), bytes, content_type_of(f->file.path));
        !s)
      return undo(s);
    listed_[key(f->file.path)] = bytes.size();
    step(publish_step::child_renamed);
  }
  step(publish_step::children_renamed);
  // The commit: one PUT replaces the entry the world fetches.
  if (!entry_same) {
    // No undo here: a PUT that failed in transport may have been stored,
    // and then the children are live. The journal's next reader checks.
    if (status s = put(key(entry), entry_bytes, content_type_of(entry)); !s)
      return s;
    listed_[key(entry)] = entry_bytes.size();
  }
  step(publish_step::entry_renamed);
  // Pages with a fixed name (the HTML view) now name the new set's files.
  for (const auto& [f, bytes] : late)
    if (status s = put(key(f->file.path), bytes, content_type_of(f->file.path));
        !s)
      return s;
  if (status s = book_put(manifest_file_name(set_), manifest); !s) return s;
  step(publish_step::manifest_written);
  for (const std::string& name : remove) {
    if (status s = client_.remove(key(name)); !s)
      return refused("cannot delete an old child", s.err());
    listed_.erase(key(name));
  }
  step(publish_step::old_removed);
  if (status s = client_.remove(book(journal_file_name(set_))); !s)
    return refused("cannot remove the journal", s.err());
  current_ = std::move(fresh);
  current_entry_ = entry;
  retired_ = std::move(retired);
  return {};
}

}  // namespace sitemill::detail
