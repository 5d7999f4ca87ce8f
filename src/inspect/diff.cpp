#include "sitemill/inspect/diff.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "detail/fingerprint_table.h"
#include "detail/text.h"
#include "detail/url_set.h"
#include "inspect/set_walk.h"
#include "inspect/url_fields.h"

namespace sitemill {
namespace {

constexpr std::array<std::string_view, diff_class_count> class_names = {
    "added",          "removed",      "lastmod-forward", "lastmod-backward",
    "lastmod-gained", "lastmod-lost", "changefreq",      "priority",
    "extensions",     "files-added",  "files-removed",   "files-renamed",
    "files-changed"};

constexpr std::int64_t no_lastmod = std::numeric_limits<std::int64_t>::min();

// What OLD said about one URL: 16 bytes beside its 8-byte fingerprint.
struct old_record {
  std::int64_t lastmod = no_lastmod;  // unix seconds
  std::uint32_t extensions = 0;       // low bits of extensions_hash()
  std::uint8_t changefreq = 0, priority = 0;
  // 0 not met in NEW, 1 met in NEW, 2 told as removed, 3 met in NEW with
  // another lastmod that the observer wants OLD's text of.
  std::uint8_t state = 0;
};
static_assert(sizeof(old_record) == 16);

// Fingerprint -> old_record in 256 shards, as url_set shards its hashes.
class old_table {
 public:
  old_record* insert(detail::url_set::key k, bool& added) {
    auto [slot, fresh] = shards_[k.shard].insert(k.fingerprint);
    added = fresh;
    size_ += fresh;
    return &shards_[k.shard].payload(slot);
  }
  old_record* find(detail::url_set::key k) {
    auto& s = shards_[k.shard];
    const std::size_t slot = s.find(k.fingerprint);
    return slot == s.npos ? nullptr : &s.payload(slot);
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t memory_bytes() const noexcept {
    std::size_t n = 0;
    for (const auto& s : shards_) n += s.memory_bytes();
    return n;
  }

 private:
  std::array<detail::fingerprint_table<old_record>, 256> shards_;
  std::size_t size_ = 0;
};

std::int64_t lastmod_seconds(const detail::url_fields& f) {
  // A lastmod that is not a date cannot be ordered: as good as none.
  return f.lastmod ? f.lastmod->unix_seconds() : no_lastmod;
}

// Counts the documents holding URLs and notes the first that was not read
// whole, which makes the diff an error.
class walk_visitor : public detail::set_visitor {
 public:
  void on_document(const walk_document&, const walk_read& r) override {
    if (r.summary.kind != document_kind::sitemapindex &&
        r.summary.kind != document_kind::unknown)
      ++files;
  }
  void on_not_read(const walk_document& doc, const std::string& why) override {
    if (problem.empty()) problem = doc.source + ": " + why;
  }
  std::uint64_t files = 0;
  std::string problem;

 protected:
  detail::url_fields fields_;
};

class old_loader final : public walk_visitor {
 public:
  explicit old_loader(old_table& t) : t_(t) {}
  void on_url(const parsed_entry& e, document_kind kind) override {
    detail::read_url_fields(e, kind, fields_);
    bool added = false;
    old_record* r = t_.insert(detail::url_set::hash(key_of(fields_, e)), added);
    if (!added) return;  // the first entry of a URL is the one compared
    r->lastmod = lastmod_seconds(fields_);
    r->extensions =
        static_cast<std::uint32_t>(detail::extensions_hash(e.extensions));
    r->changefreq = fields_.changefreq;
    r->priority = fields_.priority;
  }

 private:
  old_table& t_;
};

class new_comparer final : public walk_visitor {
 public:
  new_comparer(old_table& t, diff_summary& s, diff_observer& o)
      : t_(t), s_(s), o_(o), want_text_(o.wants_old_lastmod_text()) {}
  /// URLs whose OLD lastmod text the observer is still to be told.
  std::uint64_t lastmod_texts_wanted = 0;
  void on_url(const parsed_entry& e, document_kind kind) override {
    detail::read_url_fields(e, kind, fields_);
    const std::string_view key = key_of(fields_, e);
    const detail::url_set::key k = detail::url_set::hash(key);
    url_difference d;
    d.url = key;
    d.new_lastmod = e.lastmod.present ? detail::trim(e.lastmod.text) : "";
    old_record* r = t_.find(k);
    if (!r) {
      if (!added_.insert(k)) return;
      ++s_.new_urls;
      d.classes = bit(diff_class::added);
      tell(d);
      return;
    }
    if (r->state != 0) return;  // listed before in NEW
    r->state = 1;
    ++s_.new_urls;
    const std::int64_t lm = lastmod_seconds(fields_);
    if (r->lastmod != no_lastmod) d.old_lastmod = r->lastmod;
    if (r->lastmod == no_lastmod && lm != no_lastmod)
      d.classes |= bit(diff_class::lastmod_gained);
    else if (r->lastmod != no_lastmod && lm == no_lastmod)
      d.classes |= bit(diff_class::lastmod_lost);
    else if (lm > r->lastmod)
      d.classes |= bit(diff_class::lastmod_forward);
    else if (lm < r->lastmod)
      d.classes |= bit(diff_class::lastmod_backward);
    if (fields_.changefreq != r->changefreq)
      d.classes |= bit(diff_class::changefreq);
    if (fields_.priority != r->priority) d.classes |= bit(diff_class::priority);
    if (static_cast<std::uint32_t>(detail::extensions_hash(e.extensions)) !=
        r->extensions)
      d.classes |= bit(diff_class::extensions);
    if (d.classes == 0) return;
    ++s_.changed_urls;
    constexpr diff_classes had_one = bit(diff_class::lastmod_forward) |
                                     bit(diff_class::lastmod_backward) |
                                     bit(diff_class::lastmod_lost);
    if (want_text_ && (d.classes & had_one) != 0) {
      r->state = 3;
      ++lastmod_texts_wanted;
    }
    tell(d);
  }

 private:
  void tell(const url_difference& d) {
    for (std::size_t c = 0; c < diff_class_count; ++c)
      if (d.classes & (1u << c)) ++s_.counts[c];
    o_.on_url(d);
  }

  old_table& t_;
  diff_summary& s_;
  diff_observer& o_;
  bool want_text_;
  detail::url_set added_;  // added URLs told, so a repeat is told once
};

class removed_finder final : public walk_visitor {
 public:
  removed_finder(old_table& t, diff_summary& s, diff_observer& o)
      : t_(t), s_(s), o_(o) {}
  void on_url(const parsed_entry& e, document_kind kind) override {
    detail::read_url_fields(e, kind, fields_);
    const std::string_view key = key_of(fields_, e);
    old_record* r = t_.find(detail::url_set::hash(key));
    if (r && r->state == 3) {
      r->state = 1;
      o_.on_old_lastmod(key, e.lastmod.present ? detail::trim(e.lastmod.text)
                                               : std::string_view());
      return;
    }
    if (!r || r->state != 0) return;
    r->state = 2;
    url_difference d;
    d.classes = bit(diff_class::removed);
    d.url = key;
    d.old_lastmod_text = e.lastmod.present ? detail::trim(e.lastmod.text) : "";
    ++s_.counts[static_cast<std::size_t>(diff_class::removed)];
    o_.on_url(d);
  }

 private:
  old_table& t_;
  diff_summary& s_;
  diff_observer& o_;
};

// Compares the manifests' files: by name, then by digest for renames.
void compare_files(const published_manifest& a, const published_manifest& b,
                   diff_summary& s, diff_observer& o) {
  std::unordered_map<std::string, std::uint64_t> old_by_name, new_by_name;
  for (const auto& f : a.files) old_by_name.emplace(f.path, f.digest);
  for (const auto& f : b.files) new_by_name.emplace(f.path, f.digest);
  // Old files gone from NEW by name, by digest: candidates for a rename.
  std::unordered_multimap<std::uint64_t, std::string> gone;
  for (const auto& f : a.files)
    if (!new_by_name.contains(f.path)) gone.emplace(f.digest, f.path);
  auto tell = [&](diff_class c, std::string old_path, std::string new_path) {
    ++s.counts[static_cast<std::size_t>(c)];
    o.on_file({c, std::move(old_path), std::move(new_path)});
  };
  for (const auto& f : b.files) {
    auto it = old_by_name.find(f.path);
    if (it != old_by_name.end()) {
      if (it->second != f.digest)
        tell(diff_class::files_changed, f.path, f.path);
      continue;
    }
    auto g = gone.find(f.digest);
    if (g != gone.end()) {
      tell(diff_class::files_renamed, g->second, f.path);
      gone.erase(g);
    } else {
      tell(diff_class::files_added, "", f.path);
    }
  }
  for (const auto& f : a.files)
    if (!new_by_name.contains(f.path)) {
      // Still in `gone` unless a rename took it.
      bool renamed = true;
      for (auto [i, e] = gone.equal_range(f.digest); i != e; ++i)
        if (i->second == f.path) renamed = false;
      if (!renamed) tell(diff_class::files_removed, f.path, "");
    }
  s.files_compared = true;
  s.old_manifest_files = a.files.size();
}

// Walks `in` into `v`; an error when it was not read whole.
status walk_whole(const set_input& in, const inspect_options& options,
                  walk_visitor& v, diff_observer& o) {
  const detail::set_walk_outcome out =
      detail::walk_set(in, options, v, [&o] { return o.cancelled(); });
  if (!out.unreadable.empty()) return error{out.unreadable};
  if (out.target_kind == document_kind::unknown)
    return error{in.given + ": not a sitemap (nothing was read as one)"};
  if (!v.problem.empty())
    return error{in.given +
                 " was not read whole, so a diff would be wrong: " + v.problem};
  return {};
}

std::string percent_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", p);
  return buf;
}

}  // namespace

std::string_view to_string(diff_class c) noexcept {
  const auto i = static_cast<std::size_t>(c);
  return i < class_names.size() ? class_names[i] : "unknown";
}

std::optional<diff_class> diff_class_named(std::string_view name) noexcept {
  for (std::size_t i = 0; i < class_names.size(); ++i)
    if (class_names[i] == name) return static_cast<diff_class>(i);
  return std::nullopt;
}

bool diff_summary::same() const noexcept {
  for (std::uint64_t n : counts)
    if (n != 0) return false;
  return true;
}

result<diff_summary> diff_sets(const set_input& old_set,
                               const set_input& new_set,
                               const inspect_options& options,
                               diff_observer& observer) {
  diff_summary s;
  if (old_set.target == "-")
    return error{
        "OLD cannot be stdin: it is read a second time to name "
        "the removed URLs (NEW can be)"};
  if (old_set.manifest && new_set.manifest)
    compare_files(*old_set.manifest, *new_set.manifest, s, observer);
  old_table table;
  old_loader load(table);
  if (status st = walk_whole(old_set, options, load, observer); !st)
    return st.err();
  s.old_urls = table.size();
  s.old_files = load.files;
  new_comparer compare(table, s, observer);
  if (status st = walk_whole(new_set, options, compare, observer); !st)
    return st.err();
  s.new_files = compare.files;
  s.table_bytes = table.memory_bytes();
  // Only OLD's URLs NEW did not meet are left; reading OLD again names them
  // without keeping any URL text in memory (and gives the lastmods an
  // observer wants as OLD wrote them).
  if (s.new_urls - s.count(diff_class::added) < s.old_urls ||
      compare.lastmod_texts_wanted > 0) {
    removed_finder find(table, s, observer);
    if (status st = walk_whole(old_set, options, find, observer); !st)
      return st.err();
  }
  return s;
}

result<std::vector<diff_guard>> parse_diff_guards(std::string_view text) {
  std::vector<diff_guard> out;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view one = detail::trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    const auto bad = [&](std::string_view why) {
      return error{"`fail_on` " + std::string(one) + ": " + std::string(why),
                   "fail_on"};
    };
    const std::size_t gt = one.find('>');
    if (gt == std::string_view::npos)
      return bad("write CLASS>N or CLASS>N% (removed>10%)");
    diff_guard g;
    g.text = std::string(one);
    const std::string_view name = detail::trim(one.substr(0, gt));
    std::string_view num = detail::trim(one.substr(gt + 1));
    if (name == "any") {
    } else if (name == "changed") {
      g.changed = true;
    } else if (auto c = diff_class_named(name)) {
      g.of = c;
    } else {
      return bad(
          "not a class: added, removed, changed, lastmod-forward, "
          "lastmod-backward, lastmod-gained, lastmod-lost, changefreq, "
          "priority, extensions, files-added, files-removed, files-renamed, "
          "files-changed or any");
    }
    if (num.ends_with('%')) {
      g.percent = true;
      num.remove_suffix(1);
    }
    const std::string digits(num);
    char* end = nullptr;
    g.limit = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size() ||
        !(g.limit >= 0) || !std::isfinite(g.limit) ||
        digits.find_first_not_of("0123456789.") != std::string::npos)
      return bad("the limit is not a non-negative number");
    out.push_back(std::move(g));
  }
  if (out.empty()) return error{"`fail_on` is empty", "fail_on"};
  return out;
}

guard_verdict judge(const diff_guard& g, const diff_summary& s) {
  std::uint64_t n = 0;
  std::string what;
  if (g.changed) {
    n = s.changed_urls;
    what = "changed";
  } else if (g.of) {
    n = s.count(*g.of);
    what = std::string(to_string(*g.of));
  } else {
    n = s.count(diff_class::added) + s.count(diff_class::removed) +
        s.changed_urls;
    what = "any";
  }
  const bool files = g.of && is_file_class(*g.of);
  const std::uint64_t base = files ? s.old_manifest_files : s.old_urls;
  const char* unit =
      files ? (n == 1 ? "file" : "files") : (n == 1 ? "URL" : "URLs");
  guard_verdict v;
  v.sentence = what + ": " + with_commas(n) + " " + unit;
  if (g.percent) {
    // Of an empty OLD, anything at all is above any percentage.
    const double p =
        base == 0 ? (n == 0 ? 0.0 : 100.0)
                  : 100.0 * static_cast<double>(n) / static_cast<double>(base);
    v.tripped = base == 0 ? n > 0 && g.limit < 100.0 : p > g.limit;
    v.sentence += ", " + percent_text(p) + " of OLD's " + with_commas(base);
  } else {
    v.tripped = static_cast<double>(n) > g.limit;
  }
  v.sentence += (v.tripped ? ", above " : ", within ") +
                g.text.substr(g.text.find('>') + 1);
  v.sentence += " (" + g.text + ")";
  return v;
}

}  // namespace sitemill
