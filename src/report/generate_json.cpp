#include "sitemill/report/generate_json.h"

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "report/notify_objects.h"

namespace sitemill {
namespace {

using json = nlohmann::json;

// The report's JSON as it is written: buffered, and handed to the sink in
// blocks, so that millions of issues cost a few writes each.
class json_stream {
 public:
  explicit json_stream(sink& out) : out_(out) { buf_.reserve(block + 4096); }

  json_stream& raw(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= block) flush();
    return *this;
  }
  // A JSON string; bytes that are not UTF-8 become U+FFFD rather than
  // failing the whole report.
  json_stream& str(std::string_view s) {
    return raw(detail::dump_json(nlohmann::ordered_json(s)));
  }
  json_stream& count(std::uint64_t n) { return raw(std::to_string(n)); }
  // Keys are the schema's own ASCII names: nothing to escape.
  json_stream& key(std::string_view k) { return raw("\"").raw(k).raw("\":"); }

  status finish() {
    flush();
    return state_;
  }

 private:
  static constexpr std::size_t block = 64 * 1024;

  void flush() {
    if (state_ && !buf_.empty()) state_ = out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

  sink& out_;
  std::string buf_;
  status state_;
};

void write_issues(json_stream& out, const issue_spool& issues, issue_kind kind,
                  status& spool_state) {
  out.raw("[");
  bool first = true;
  status read = issues.for_each(kind, [&](const record_issue& issue) {
    out.raw(first ? "{" : ",{");
    first = false;
    out.key("input").str(issue.input);
    out.raw(",").key("line").count(issue.line);
    out.raw(",").key("reason").str(issue.reason).raw("}");
  });
  out.raw("]");
  if (!read && spool_state) spool_state = read;
}

void write_urls(json_stream& out, const std::vector<std::string>& urls) {
  out.raw("[");
  for (std::size_t i = 0; i < urls.size(); ++i)
    out.raw(i ? "," : "").str(urls[i]);
  out.raw("]");
}

// The robots, IndexNow and submit objects are the ones `sitemill robots
// --json`, `sitemill indexnow --json` and `sitemill submit --json` print
// (report/notify_objects.h).
void write_announcement(json_stream& out, const announcement& done) {
  out.raw(",").key("announce").raw("{");
  if (done.robots)
    out.key("robots").raw(
        detail::dump_json(detail::robots_object(*done.robots)));
  if (done.indexnow) {
    out.raw(done.robots ? "," : "").key("indexnow");
    out.raw(detail::dump_json(detail::indexnow_object(*done.indexnow)));
  }
  if (done.submit) {
    out.raw(done.robots || done.indexnow ? "," : "").key("submit");
    out.raw(detail::dump_json(detail::submit_object(*done.submit)));
  }
  out.raw("}");
}

// --- reading

// Where a value is, for messages: "files"[2].urls, "changes".added.
std::string member(std::string_view where, std::string_view key) {
  if (where.empty()) {
    std::string quoted = "\"";  // appended: see date_pattern.cpp (-Wrestrict)
    (quoted += key) += '"';
    return quoted;
  }
  return std::string(where) + "." + std::string(key);
}

std::string element(std::string_view where, std::size_t i) {
  return std::string(where) + "[" + std::to_string(i) + "]";
}

// Reads the members of one JSON object into C++ values, each optional,
// remembering the first value of the wrong type.
class object_reader {
 public:
  object_reader(const json& object, std::string where)
      : object_(object), where_(std::move(where)) {}

  void flag(std::string_view key, bool& out) {
    if (const json* v = find(key)) {
      if (v->is_boolean())
        out = v->get<bool>();
      else
        fail(key, "true or false");
    }
  }
  void strings(std::string_view key, std::vector<std::string>& out) {
    array(key, [&](const json& v, const std::string& where) {
      if (v.is_string())
        out.push_back(v.get<std::string>());
      else
        fail_with(where + " is not a string");
    });
  }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  void text(std::string_view key, std::string& out) {
    if (const json* v = find(key)) {
      if (v->is_string())
        out = v->get<std::string>();
      else
        fail(key, "a string");
    }
  }
  template <class Count>
  void count(std::string_view key, Count& out) {
    if (const json* v = find(key)) {
      if (v->is_number_unsigned())
        out = static_cast<Count>(v->get<std::uint64_t>());
      else
        fail(key, "a count");
    }
  }
  // An array whose elements `each` reads, given each one and where it is.
  template <class Each>
  void array(std::string_view key, Each&& each) {
    const json* v = find(key);
    if (v == nullptr) return;
    if (!v->is_array()) return fail(key, "an array");
    const std::string at = member(where_, key);
    for (std::size_t i = 0; i < v->size() && problem_.empty(); ++i)
      each((*v)[i], element(at, i));
  }
  const json* object(std::string_view key) {
    const json* v = find(key);
    if (v != nullptr && !v->is_object()) {
      fail(key, "an object");
      return nullptr;
    }
    return v;
  }

  void fail(std::string_view key, std::string_view what) {
    fail_with(member(where_, key) + " is not " + std::string(what));
  }
  void fail_with(std::string message) {
    if (problem_.empty()) problem_ = std::move(message);
  }
  const std::string& problem() const { return problem_; }
  std::string_view where() const { return where_; }

 private:
  const json* find(std::string_view key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
  }

  const json& object_;
  std::string where_;
  std::string problem_;
};

std::optional<document_type> parse_type(std::string_view name) {
  for (document_type t :
       {document_type::urlset, document_type::sitemapindex, document_type::text,
        document_type::stylesheet, document_type::html})
    if (to_string(t) == name) return t;
  return std::nullopt;
}

void read_files(object_reader& top, std::vector<published_file>& files) {
  top.array("files", [&](const json& v, const std::string& where) {
    if (!v.is_object()) return top.fail_with(where + " is not an object");
    object_reader f(v, where);
    published_file file;
    std::string type = std::string(to_string(file.type));
    f.text("path", file.path);
    f.text("type", type);
    f.count("urls", file.urls);
    f.count("bytes", file.bytes);
    if (auto t = parse_type(type))
      file.type = *t;
    else
      f.fail("type", "urlset, sitemapindex, text, stylesheet or html");
    if (!f.problem().empty()) return top.fail_with(f.problem());
    files.push_back(std::move(file));
  });
}

void read_issues(object_reader& top, std::string_view key,
                 std::vector<record_issue>& out) {
  top.array(key, [&](const json& v, const std::string& where) {
    if (!v.is_object()) return top.fail_with(where + " is not an object");
    object_reader i(v, where);
    record_issue issue;
    i.text("input", issue.input);
    i.count("line", issue.line);
    i.text("reason", issue.reason);
    if (!i.problem().empty()) return top.fail_with(i.problem());
    out.push_back(std::move(issue));
  });
}

void read_lastmods(object_reader& top, lastmod_counts& l) {
  const json* v = top.object("lastmods");
  if (v == nullptr) return;
  object_reader c(*v, member(top.where(), "lastmods"));
  c.count("dropped", l.dropped);
  c.count("zone_assumed", l.zone_assumed);
  c.count("dst_adjusted", l.dst_adjusted);
  c.array("first_dropped", [&](const json& item, const std::string& where) {
    if (!item.is_object()) return c.fail("first_dropped", "an object");
    object_reader d(item, where);
    lastmod_sample& sample = l.first_dropped.emplace_back();
    d.text("input", sample.input);
    d.count("line", sample.line);
    d.text("text", sample.text);
    if (!d.problem().empty()) c.fail_with(d.problem());
  });
  if (!c.problem().empty()) top.fail_with(c.problem());
}

void read_changes(object_reader& top, state_changes& changes) {
  const json* v = top.object("changes");
  if (v == nullptr) return;
  object_reader c(*v, member(top.where(), "changes"));
  for (auto [key, list] : {std::pair{"added", &changes.added},
                           std::pair{"changed", &changes.changed},
                           std::pair{"removed", &changes.removed}}) {
    std::vector<std::string>& urls = *list;
    const std::string at = member(c.where(), key);
    c.array(key, [&](const json& item, const std::string&) {
      if (item.is_string()) return urls.push_back(item.get<std::string>());
      if (item.is_object()) {
        const auto loc = item.find("loc");
        if (loc != item.end() && loc->is_string())
          return urls.push_back(loc->get<std::string>());
      }
      c.fail_with(at + " holds something that is not a URL string");
    });
  }
  if (!c.problem().empty()) top.fail_with(c.problem());
}

std::optional<indexnow_outcome> parse_outcome(std::string_view name) {
  for (auto o = indexnow_outcome::not_sent;;
       o = static_cast<indexnow_outcome>(static_cast<int>(o) + 1)) {
    if (to_string(o) == name) return o;
    if (o == indexnow_outcome::cancelled) return std::nullopt;
  }
}

void read_robots(object_reader& a, announcement& done) {
  const json* v = a.object("robots");
  if (v == nullptr) return;
  object_reader r(*v, member(a.where(), "robots"));
  robots_announcement& robots = done.robots.emplace();
  r.text("path", robots.path);
  r.strings("sitemaps", robots.sitemaps);
  if (r.has("error")) {
    robots.failure.emplace();
    r.text("error", robots.failure->message);
  } else {
    robots_update& update = robots.update.emplace();
    r.strings("added", update.edit.added);
    r.strings("present", update.edit.present);
    r.array("removed", [&](const json& item, const std::string& where) {
      if (!item.is_object()) return r.fail_with(where + " is not an object");
      object_reader x(item, where);
      robots_removed_line& line = update.edit.removed.emplace_back();
      x.count("line", line.line);
      x.text("text", line.text);
      x.text("reason", line.reason);
      if (!x.problem().empty()) r.fail_with(x.problem());
    });
    r.strings("notes", update.edit.notes);
    r.flag("created", update.created);
    r.flag("changed", update.edit.changed);
    r.flag("written", update.written);
  }
  if (!r.problem().empty()) a.fail_with(r.problem());
}

void read_indexnow(object_reader& a, const generate_report& report,
                   announcement& done) {
  const json* v = a.object("indexnow");
  if (v == nullptr) return;
  object_reader n(*v, member(a.where(), "indexnow"));
  indexnow_announcement& indexnow = done.indexnow.emplace();
  // The URLs themselves are the changes' (the report lists them once).
  std::size_t urls = 0;
  n.count("urls", urls);
  if (urls > 0 && report.changes)
    indexnow.urls = indexnow_urls(*report.changes);
  if (n.has("error")) {
    indexnow.failure.emplace();
    n.text("error", indexnow.failure->message);
  } else if (n.has("batches")) {
    indexnow_report& r = indexnow.report.emplace();
    r.urls = indexnow.urls.size();
    n.text("endpoint", r.endpoint);
    n.text("host", r.host);
    n.text("key_location", r.key_location);
    n.count("duplicates", r.duplicates);
    n.array("rejected", [&](const json& item, const std::string& where) {
      if (!item.is_object()) return n.fail_with(where + " is not an object");
      object_reader x(item, where);
      indexnow_rejection& rejection = r.rejected.emplace_back();
      x.text("url", rejection.url);
      x.text("reason", rejection.reason);
      if (!x.problem().empty()) n.fail_with(x.problem());
    });
    n.array("batches", [&](const json& item, const std::string& where) {
      if (!item.is_object()) return n.fail_with(where + " is not an object");
      object_reader x(item, where);
      indexnow_batch& batch = r.batches.emplace_back();
      std::string outcome;
      x.count("urls", batch.urls);
      x.text("outcome", outcome);
      x.count("status", batch.status);
      x.text("message", batch.message);
      x.array("attempts", [&](const json& tried, const std::string& at) {
        if (!tried.is_object()) return x.fail_with(at + " is not an object");
        object_reader t(tried, at);
        http_attempt& attempt = batch.attempts.emplace_back();
        std::uint64_t wait_ms = 0;
        t.count("status", attempt.status);
        t.text("error", attempt.error);
        t.count("wait_ms", wait_ms);
        attempt.wait =
            std::chrono::milliseconds(static_cast<std::int64_t>(wait_ms));
        if (!t.problem().empty()) x.fail_with(t.problem());
      });
      if (auto o = parse_outcome(outcome))
        batch.outcome = *o;
      else
        x.fail("outcome", "an IndexNow outcome (accepted, refused, ...)");
      if (!x.problem().empty()) n.fail_with(x.problem());
    });
  }
  if (!n.problem().empty()) a.fail_with(n.problem());
}

void read_announcement(object_reader& top, generate_json_contents& out) {
  const json* v = top.object("announce");
  if (v == nullptr) return;
  object_reader a(*v, member(top.where(), "announce"));
  announcement& done = out.announced.emplace();
  read_robots(a, done);
  read_indexnow(a, out.report, done);
  if (!a.problem().empty()) top.fail_with(a.problem());
}

void read_sets(object_reader& top, std::vector<set_report>& sets) {
  top.array("sets", [&](const json& v, const std::string& where) {
    if (!v.is_object()) return top.fail_with(where + " is not an object");
    object_reader s(v, where);
    set_report set;
    s.text("base_url", set.base_url);
    s.text("out_dir", set.out_dir);
    s.text("entry", set.entry);
    if (s.has("sitemaps_url")) s.text("sitemaps_url", set.sitemaps_url);
    s.text("entry_url", set.entry_url);
    s.count("written", set.written);
    s.flag("dated", set.dated);
    read_files(s, set.files);
    if (!s.problem().empty()) return top.fail_with(s.problem());
    sets.push_back(std::move(set));
  });
}

template <class Input>
result<generate_json_contents> read_from(
    Input&& input, const generate_json_read_options& options) {
  // Without the lists, each issue is counted as the parser meets it and not
  // kept: an element of "rejected" is at depth 2.
  constexpr std::array<std::string_view, 3> lists = {"rejected", "warnings",
                                                     "skipped"};
  std::array<std::uint64_t, 3> counted{};
  std::size_t list = lists.size();  // the top-level key being read
  const json::parser_callback_t keep = [&](int depth, json::parse_event_t event,
                                           json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) {
      const std::string& k = parsed.get_ref<const std::string&>();
      list = std::find(lists.begin(), lists.end(), k) - lists.begin();
      // A key given twice keeps its last value, as in the parsed object.
      if (list < lists.size()) counted[list] = 0;
      return true;
    }
    if (options.issues || depth != 2 || list == lists.size()) return true;
    if (event == json::parse_event_t::object_start ||
        event == json::parse_event_t::array_start ||
        event == json::parse_event_t::value) {
      ++counted[list];
      return false;
    }
    return true;
  };
  const json doc = json::parse(std::forward<Input>(input), keep,
                               /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object())
    return error{
        "not a JSON object (expected the `json` report of sitemill "
        "generate)"};

  generate_json_contents out;
  generate_report& r = out.report;
  // A dry run's report lists files that were never published: nothing may
  // be announced from it.
  if (const auto dry = doc.find("dry_run");
      dry != doc.end() && dry->is_boolean() && dry->get<bool>())
    return error{
        "the report of a dry run (\"dry_run\": true): nothing was "
        "published"};
  object_reader top(doc, "");
  top.text("entry", r.entry);
  if (top.has("entry_url")) top.text("entry_url", r.entry_url);
  read_files(top, r.files);
  top.count("records", r.records);
  top.count("written", r.written);
  top.count("duplicates", r.duplicates);
  if (top.has("filtered")) top.count("filtered", r.filtered);
  if (top.has("spilled")) top.count("spilled", r.spilled);
  if (top.has("spill_bytes")) top.count("spill_bytes", r.spill_bytes);
  read_issues(top, "rejected", out.rejected);
  read_issues(top, "warnings", out.warnings);
  read_issues(top, "skipped", out.skipped);
  read_lastmods(top, r.lastmods);
  if (top.object("changes") != nullptr) {
    r.changes.emplace();
    read_changes(top, *r.changes);
  }
  read_announcement(top, out);
  read_sets(top, r.sets);
  if (!top.problem().empty()) return error{top.problem()};

  r.outcome =
      r.entry.empty() ? generate_outcome::failed : generate_outcome::published;
  r.rejected = options.issues ? out.rejected.size() : counted[0];
  r.warnings = options.issues ? out.warnings.size() : counted[1];
  r.skipped = options.issues ? out.skipped.size() : counted[2];
  return out;
}

}  // namespace

namespace {

// "files":[...].
void write_files(json_stream& out, const std::vector<published_file>& files) {
  out.key("files").raw("[");
  for (std::size_t i = 0; i < files.size(); ++i) {
    const published_file& f = files[i];
    out.raw(i ? ",{" : "{").key("path").str(f.path);
    out.raw(",").key("type").str(to_string(f.type));
    out.raw(",").key("urls").count(f.urls);
    out.raw(",").key("bytes").count(f.bytes).raw("}");
  }
  out.raw("]");
}

bool asked_for_anything(std::span<const announcement> announced,
                        std::size_t i) {
  return i < announced.size() &&
         (announced[i].robots || announced[i].indexnow || announced[i].submit);
}

// "sets":[...]: each published set with what was announced for it.
void write_sets(json_stream& out, const std::vector<set_report>& sets,
                std::span<const announcement> announced) {
  out.raw(",").key("sets").raw("[");
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const set_report& s = sets[i];
    out.raw(i ? ",{" : "{").key("base_url").str(s.base_url);
    out.raw(",").key("out_dir").str(s.out_dir);
    out.raw(",").key("entry").str(s.entry);
    if (!s.sitemaps_url.empty())
      out.raw(",").key("sitemaps_url").str(s.sitemaps_url);
    out.raw(",").key("entry_url").str(s.entry_url);
    out.raw(",").key("written").count(s.written);
    out.raw(",").key("dated").raw(s.dated ? "true" : "false").raw(",");
    write_files(out, s.files);
    if (asked_for_anything(announced, i)) write_announcement(out, announced[i]);
    out.raw("}");
  }
  out.raw("]");
}

}  // namespace

status write_generate_json(sink& sink_out, const generate_report& r,
                           const issue_spool& issues,
                           std::span<const announcement> announced) {
  json_stream out(sink_out);
  status spool_state = issues.state();
  out.raw("{").key("entry").str(r.entry);
  out.raw(",").key("entry_url").str(r.entry_url);
  out.raw(",");
  write_files(out, r.files);
  out.raw(",").key("records").count(r.records);
  out.raw(",").key("written").count(r.written);
  out.raw(",").key("duplicates").count(r.duplicates);
  out.raw(",").key("filtered").count(r.filtered);
  // Only when some URL had a section (generate_options::sections).
  if (!r.sections.empty()) out.raw(",").key("sections").raw("[");
  for (std::size_t i = 0; i < r.sections.size(); ++i) {
    const section_total& t = r.sections[i];
    out.raw(i ? ",{" : "{").key("name").str(t.name);
    out.raw(",").key("urls").count(t.urls);
    out.raw(",").key("files").count(t.files);
    out.raw(",").key("bytes").count(t.bytes).raw("}");
  }
  if (!r.sections.empty()) out.raw("]");
  if (r.dry_run) out.raw(",").key("dry_run").raw("true");
  if (!r.shard_dir.empty()) {
    out.raw(",").key("shard").raw("{").key("dir").str(r.shard_dir);
    out.raw(",").key("other_shards").count(r.other_shards).raw("}");
  }
  out.raw(",").key("spilled").count(r.spilled);
  out.raw(",").key("spill_bytes").count(r.spill_bytes);
  out.raw(",").key("rejected");
  write_issues(out, issues, issue_kind::rejected, spool_state);
  out.raw(",").key("warnings");
  write_issues(out, issues, issue_kind::warning, spool_state);
  out.raw(",").key("skipped");
  write_issues(out, issues, issue_kind::skipped, spool_state);
  // Only when the run reported them (generate_options::report_duplicates).
  if (issues.count(issue_kind::duplicate) > 0) {
    out.raw(",").key("duplicate_records").raw("[");
    bool first = true;
    status read = issues.for_each_duplicate([&](const duplicate_record& d) {
      out.raw(first ? "{" : ",{").key("input").str(d.input);
      first = false;
      out.raw(",").key("line").count(d.line);
      out.raw(",").key("url").str(d.url);
      out.raw(",").key("first_input").str(d.first_input);
      out.raw(",").key("first_line").count(d.first_line).raw("}");
    });
    out.raw("]");
    if (!read && spool_state) spool_state = read;
  }
  const lastmod_counts& l = r.lastmods;
  out.raw(",").key("lastmods").raw("{").key("dropped").count(l.dropped);
  out.raw(",").key("zone_assumed").count(l.zone_assumed);
  out.raw(",").key("dst_adjusted").count(l.dst_adjusted);
  out.raw(",").key("first_dropped").raw("[");
  for (std::size_t i = 0; i < l.first_dropped.size(); ++i) {
    const lastmod_sample& d = l.first_dropped[i];
    out.raw(i ? ",{" : "{").key("input").str(d.input);
    out.raw(",").key("line").count(d.line);
    out.raw(",").key("text").str(d.text).raw("}");
  }
  out.raw("]}");
  if (r.changes) {
    out.raw(",").key("changes").raw("{").key("added");
    write_urls(out, r.changes->added);
    out.raw(",").key("changed");
    write_urls(out, r.changes->changed);
    out.raw(",").key("removed");
    write_urls(out, r.changes->removed);
    out.raw("}");
  }
  // The first set's announcement is the report's own, as its entry is.
  if (asked_for_anything(announced, 0)) write_announcement(out, announced[0]);
  if (!r.sets.empty()) write_sets(out, r.sets, announced);
  out.raw("}\n");
  if (status s = out.finish(); !s) return s;
  return spool_state;
}

result<generate_json_contents> read_generate_json(
    std::string_view text, const generate_json_read_options& options) {
  return read_from(text, options);
}

result<generate_json_contents> read_generate_json_file(
    const std::string& path, const generate_json_read_options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error{path + ": cannot be read: " + std::strerror(errno)};
  auto read = read_from(in, options);
  if (in.bad())
    return error{path + ": cannot be read: " + std::strerror(errno)};
  if (!read) return error{path + ": " + read.err().message};
  return read;
}

result<std::vector<std::string>> read_manifest_changes(
    const std::string& path) {
  auto read = read_generate_json_file(path, {.issues = false});
  if (!read) return std::move(read).err();
  const std::optional<state_changes>& changes = read->report.changes;
  if (!changes) {
    return error{path +
                 ": has no \"changes\"; only a generate run with a state "
                 "database knows which URLs were added or changed. Give the "
                 "URLs with `urls` or as arguments instead"};
  }
  return indexnow_urls(*changes);
}

}  // namespace sitemill
