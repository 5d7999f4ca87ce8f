// The hand-written JSONL and CSV readers against JSON and CSV libraries from
// Debian, on the same 1M-URL input (benchmarks/reader_libs.sh makes it).
//
// Like with like: every per-line variant reads its lines through the same
// line_reader (BOM, CRLF, gzip, line numbers, the 1 MiB cap), hands on the
// same four fields per record with its line, unescapes strings, keeps a
// number's text, and turns a bad line into a problem instead of stopping.
// The setup runs each variant once, hashing every field and line, and
// aborts unless it gives exactly the hand-written reader's records. What
// still differs (checked by the libraries, not by us, or the reverse) is
// listed in benchmarks/README.md.
//
// Usage: reader_libs_bench [--benchmark_...] [PREFIX]  (reads PREFIX.jsonl and
// PREFIX.csv; default /tmp/bench/data/urls-1000000)
#include <benchmark/benchmark.h>
#include <csv.h>  // libcsv
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/source/record_reader.h"
#include "source/line_reader.h"
#include "source/readers.h"

// fast-cpp-csv-parser reads ahead on a thread of its own unless told not to;
// one thread keeps its CPU time comparable with the others'.
#define CSV_IO_NO_THREAD
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-truncation"  // in its error type
#include <libfccp/csv.h>
#pragma GCC diagnostic pop

namespace {

using namespace sitemill;
using detail::line_reader;

constexpr std::string_view key_names[4] = {"loc", "lastmod", "changefreq",
                                           "priority"};

// What every variant hands on per record. The timed runs only count; the
// setup also hashes (FNV-1a) every field, and separately every line number,
// so outputs can be compared without keeping a million records.
struct tally {
  bool hash = false;
  std::uint64_t records = 0, problems = 0, bytes = 0;
  std::uint64_t fields = 1469598103934665603u;
  std::uint64_t lines = 1469598103934665603u;

  static void mix(std::uint64_t& h, std::string_view s) {
    for (const char c : s)
      h = (h ^ static_cast<unsigned char>(c)) * 1099511628211u;
    h = (h ^ 0x1F) * 1099511628211u;  // field separator
  }
  void add(std::uint64_t line, std::string_view loc, std::string_view lastmod,
           std::string_view changefreq, std::string_view priority,
           std::string_view problem) {
    ++records;
    problems += !problem.empty();
    bytes += loc.size() + lastmod.size() + changefreq.size() + priority.size();
    if (!hash) return;
    for (const std::string_view f : {loc, lastmod, changefreq, priority})
      mix(fields, f);
    mix(fields, problem.empty() ? "" : "!");
    lines = (lines ^ line) * 1099511628211u;
  }
  void add(const input_record& r) {
    add(r.line, r.loc, r.lastmod, r.changefreq, r.priority, r.problem);
  }
};

std::unique_ptr<detail::byte_source> memory(std::string_view data) {
  return std::make_unique<detail::memory_source>(data);
}

// ---- the hand-written readers
// ------------------------------------------------

void read_handwritten(std::string_view data, input_format format, tally& t) {
  reader_options options;
  options.format = format;
  auto reader = detail::make_reader(memory(data), "bench", options, {});
  if (!reader) std::abort();
  input_record r;
  while ((*reader)->next(r)) t.add(r);
  if (!(*reader)->error().empty()) std::abort();
}

// ---- JSONL through nlohmann::json
// --------------------------------------------

// A DOM per line: the obvious use of the library.
void read_nlohmann_dom(std::string_view data, tally& t) {
  line_reader lines(memory(data), "bench", {});
  line_reader::line l;
  std::string number;
  while (lines.next(l)) {
    if (!l.too_long && detail::is_blank_line(l.text)) continue;
    if (l.too_long) {
      t.add(l.number, {}, {}, {}, {}, "line too long");
      continue;
    }
    const auto j = nlohmann::json::parse(l.text.begin(), l.text.end(), nullptr,
                                         /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) {
      t.add(l.number, {}, {}, {}, {}, "invalid JSON");
      continue;
    }
    std::string_view f[4];
    bool bad = false;
    for (int k = 0; k < 4; ++k) {
      const auto it = j.find(key_names[k]);
      if (it == j.end() || it->is_null()) continue;
      if (it->is_string()) {
        f[k] = it->get_ref<const std::string&>();
      } else if (k == 3 && it->is_number()) {
        number = it->dump();  // the DOM keeps a double, not the text
        f[k] = number;
      } else {
        bad = true;
      }
    }
    if (bad) {
      t.add(l.number, {}, {}, {}, {}, "field has the wrong type");
    } else {
      t.add(l.number, f[0], f[1], f[2], f[3], {});
    }
  }
}

// SAX: no DOM, and a number's text as written. The closest the library
// comes to the hand-written reader.
class sax_record {
 public:
  using json = nlohmann::json;

  bool parse(std::string_view text) {
    depth_ = 0;
    key_ = -1;
    problem_ = {};
    for (int k = 0; k < 4; ++k) {
      values_[k].clear();
      seen_[k] = false;
    }
    const bool ok = json::sax_parse(text.begin(), text.end(), this,
                                    json::input_format_t::json, true);
    if (!ok && problem_.empty()) problem_ = "invalid JSON";
    return problem_.empty();
  }
  std::string_view value(int k) const { return values_[k]; }
  std::string_view problem() const { return problem_; }

  bool null() { return scalar(); }
  bool boolean(bool) { return scalar(true); }
  bool number_integer(json::number_integer_t v) {
    return number(std::to_string(v));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return number(std::to_string(v));
  }
  bool number_float(json::number_float_t, const json::string_t& text) {
    return number(text);
  }
  bool string(json::string_t& s) {
    if (!at_field()) return root_ok();
    values_[key_] = std::move(s);
    return true;
  }
  bool binary(json::binary_t&) { return scalar(true); }
  bool start_object(std::size_t) { return open(); }
  bool end_object() {
    --depth_;
    return true;
  }
  bool start_array(std::size_t) {
    if (depth_ == 0) problem_ = "invalid JSON: not an object";
    return open();
  }
  bool end_array() {
    --depth_;
    return true;
  }
  bool key(json::string_t& k) {
    if (depth_ != 1) return true;
    key_ = 4;
    for (int i = 0; i < 4; ++i)
      if (k == key_names[i]) key_ = i;
    if (key_ < 4) {
      if (seen_[key_]) type_problem("duplicate key");
      seen_[key_] = true;
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception&) {
    problem_ = "invalid JSON";
    return false;
  }

 private:
  bool at_field() const { return depth_ == 1 && key_ >= 0 && key_ < 4; }
  bool root_ok() {
    if (depth_ == 0) problem_ = "invalid JSON: not an object";
    return depth_ != 0;
  }
  bool scalar(bool wrong_type = false) {
    if (!at_field()) return root_ok();
    if (wrong_type) type_problem("field has the wrong type");
    return true;
  }
  bool number(const std::string& text) {
    if (!at_field()) return root_ok();
    if (key_ == 3) {
      values_[3] = text;
    } else {
      type_problem("field has the wrong type");
    }
    return true;
  }
  bool open() {
    if (at_field()) type_problem("field has the wrong type");
    ++depth_;
    return true;
  }
  void type_problem(std::string_view why) {
    if (problem_.empty()) problem_ = why;
  }

  int depth_ = 0;
  int key_ = -1;
  std::string values_[4];
  bool seen_[4] = {};
  std::string_view problem_;
};

void read_nlohmann_sax(std::string_view data, tally& t) {
  line_reader lines(memory(data), "bench", {});
  line_reader::line l;
  sax_record rec;
  while (lines.next(l)) {
    if (!l.too_long && detail::is_blank_line(l.text)) continue;
    if (l.too_long) {
      t.add(l.number, {}, {}, {}, {}, "line too long");
    } else if (!rec.parse(l.text)) {
      t.add(l.number, {}, {}, {}, {}, rec.problem());
    } else {
      t.add(l.number, rec.value(0), rec.value(1), rec.value(2), rec.value(3),
            {});
    }
  }
}

// ---- JSONL through simdjson (On-Demand) -------------------------------------

// The four fields of one document; the problem, or "" when it is usable.
template <class Document>
std::string_view extract(Document&& doc, std::string_view (&f)[4]) {
  namespace od = simdjson::ondemand;
  od::object object;
  if (doc.get_object().get(object)) return "invalid JSON: not an object";
  bool seen[4] = {};
  std::string_view problem;
  for (auto item : object) {
    od::field field;
    std::string_view key;
    if (std::move(item).get(field) || field.unescaped_key().get(key))
      return "invalid JSON";
    int k = 0;
    while (k < 4 && key != key_names[k]) ++k;
    if (k == 4) continue;  // skipped, unread
    if (seen[k] && problem.empty()) problem = "duplicate key";
    seen[k] = true;
    od::value value = field.value();
    od::json_type type;
    if (value.type().get(type)) return "invalid JSON";
    switch (type) {
      case od::json_type::string:
        if (value.get_string().get(f[k])) return "invalid JSON";
        break;
      case od::json_type::number:
        if (k != 3) {
          if (problem.empty()) problem = "field has the wrong type";
          break;
        }
        f[k] = value.raw_json_token();
        while (!f[k].empty() && (f[k].back() == ' ' || f[k].back() == '\t' ||
                                 f[k].back() == '\r' || f[k].back() == '\n'))
          f[k].remove_suffix(1);
        break;
      case od::json_type::null:
        if (!value.is_null()) return "invalid JSON";
        break;
      default:
        if (problem.empty()) problem = "field has the wrong type";
    }
  }
  return problem;
}

// One parse per line, the line copied into a buffer with the padding
// simdjson reads past the end.
void read_simdjson_lines(std::string_view data, tally& t) {
  line_reader lines(memory(data), "bench", {});
  line_reader::line l;
  simdjson::ondemand::parser parser;
  std::vector<char> padded(lines.max_line() + 1 + simdjson::SIMDJSON_PADDING);
  while (lines.next(l)) {
    if (!l.too_long && detail::is_blank_line(l.text)) continue;
    if (l.too_long) {
      t.add(l.number, {}, {}, {}, {}, "line too long");
      continue;
    }
    std::memcpy(padded.data(), l.text.data(), l.text.size());
    simdjson::ondemand::document doc;
    std::string_view f[4];
    std::string_view problem = "invalid JSON";
    if (!parser.iterate(padded.data(), l.text.size(), padded.size()).get(doc))
      problem = extract(doc, f);
    if (problem.empty()) {
      t.add(l.number, f[0], f[1], f[2], f[3], {});
    } else {
      t.add(l.number, {}, {}, {}, {}, problem);
    }
  }
}

// Checks a value simdjson would skip unread, as the hand-written reader
// checks every value of a line; its depth cap too.
simdjson::error_code validate(simdjson::ondemand::value value, int depth) {
  namespace od = simdjson::ondemand;
  if (depth > 256) return simdjson::DEPTH_ERROR;
  od::json_type type;
  if (auto e = value.type().get(type)) return e;
  switch (type) {
    case od::json_type::array: {
      od::array array;
      if (auto e = value.get_array().get(array)) return e;
      for (auto item : array) {
        od::value v;
        if (auto e = std::move(item).get(v)) return e;
        if (auto e = validate(v, depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::object: {
      od::object object;
      if (auto e = value.get_object().get(object)) return e;
      for (auto item : object) {
        od::field field;
        std::string_view key;
        if (auto e = std::move(item).get(field)) return e;
        if (auto e = field.unescaped_key().get(key)) return e;
        if (auto e = validate(field.value(), depth + 1)) return e;
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::number: {
      od::number n;
      return value.get_number().get(n);
    }
    case od::json_type::string: {
      std::string_view s;
      return value.get_string().get(s);
    }
    case od::json_type::boolean: {
      bool b;
      return value.get_bool().get(b);
    }
    case od::json_type::null:
      return value.is_null() ? simdjson::SUCCESS : simdjson::INCORRECT_TYPE;
  }
  return simdjson::INCORRECT_TYPE;
}

// simdjson made to behave like the hand-written reader on the lines it
// accepts: unknown values checked in full, numbers checked, text after the
// object noticed. Every line it does not accept (bad JSON, a problem, bytes
// that are not UTF-8, which simdjson refuses and the hand-written reader
// passes on to the entry stage) must go to the hand-written parser for its
// exact problem text and column, so the library could only ever be a fast
// path in front of it. This input has no such line; `slow` counts them.
bool extract_checked(simdjson::ondemand::document& doc,
                     std::string_view (&f)[4]) {
  namespace od = simdjson::ondemand;
  od::object object;
  if (doc.get_object().get(object)) return false;
  bool seen[4] = {};
  for (auto item : object) {
    od::field field;
    std::string_view key;
    if (std::move(item).get(field) || field.unescaped_key().get(key))
      return false;
    int k = 0;
    while (k < 4 && key != key_names[k]) ++k;
    if (k == 4) {
      if (validate(field.value(), 1)) return false;
      continue;
    }
    if (seen[k]) return false;
    seen[k] = true;
    od::value value = field.value();
    od::json_type type;
    if (value.type().get(type)) return false;
    if (type == od::json_type::string) {
      if (value.get_string().get(f[k])) return false;
    } else if (type == od::json_type::number && k == 3) {
      f[k] = value.raw_json_token();
      while (!f[k].empty() && (f[k].back() == ' ' || f[k].back() == '\t' ||
                               f[k].back() == '\r' || f[k].back() == '\n'))
        f[k].remove_suffix(1);
      od::number n;
      if (value.get_number().get(n)) return false;
    } else if (type != od::json_type::null || !value.is_null()) {
      return false;
    }
  }
  const char* after = nullptr;
  return doc.current_location().get(after) != simdjson::SUCCESS;
}

std::uint64_t slow = 0;

void read_simdjson_checked(std::string_view data, tally& t) {
  line_reader lines(memory(data), "bench", {});
  line_reader::line l;
  simdjson::ondemand::parser parser;
  std::vector<char> padded(lines.max_line() + 1 + simdjson::SIMDJSON_PADDING);
  while (lines.next(l)) {
    if (!l.too_long && detail::is_blank_line(l.text)) continue;
    if (l.too_long) {
      t.add(l.number, {}, {}, {}, {}, "line too long");
      continue;
    }
    std::memcpy(padded.data(), l.text.data(), l.text.size());
    simdjson::ondemand::document doc;
    std::string_view f[4];
    if (!parser.iterate(padded.data(), l.text.size(), padded.size()).get(doc) &&
        extract_checked(doc, f)) {
      t.add(l.number, f[0], f[1], f[2], f[3], {});
    } else {
      ++slow;  // the hand-written parser's line
      t.add(l.number, {}, {}, {}, {}, "to the hand-written parser");
    }
  }
}

// The whole input as one stream of documents: simdjson at its fastest. Not
// equal behaviour: no gzip or BOM, and the first bad line ends the stream
// (no way to resynchronise at the next line), so it is an upper bound only.
void read_simdjson_stream(const simdjson::padded_string& data, tally& t) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document_stream stream;
  if (parser.iterate_many(data.data(), data.size(), 1 << 20).get(stream))
    std::abort();
  std::uint64_t line = 1;
  std::size_t counted = 0;
  for (auto it = stream.begin(); it != stream.end(); ++it) {
    const std::size_t at = it.current_index();
    for (const char* p = data.data() + counted;
         (p = static_cast<const char*>(
              std::memchr(p, '\n', data.data() + at - p))) != nullptr;
         ++p)
      ++line;
    counted = at;
    std::string_view f[4];
    const std::string_view problem = extract(*it, f);
    if (problem.empty()) {
      t.add(line, f[0], f[1], f[2], f[3], {});
    } else {
      t.add(line, {}, {}, {}, {}, problem);
    }
  }
}

// ---- CSV through libcsv
// ------------------------------------------------------

// libcsv parses a byte stream with callbacks per field and per row; it is
// fed line_reader's lines (with their line break back) so that line numbers,
// BOM and gzip come from the same place as for the hand-written reader.
class libcsv_reader {
 public:
  explicit libcsv_reader(tally& t) : t_(t) { start(); }
  ~libcsv_reader() { csv_free(&p_); }

  void read(std::string_view data) {
    line_reader lines(memory(data), "bench", {});
    line_reader::line l;
    while (lines.next(l)) {
      if (at_start_) {
        if (!l.too_long && detail::is_blank_line(l.text)) continue;
        start_line_ = l.number;
        at_start_ = false;
      }
      const std::string_view nl = l.had_cr ? "\r\n" : "\n";
      if (l.too_long ||
          csv_parse(&p_, l.text.data(), l.text.size(), field, row, this) !=
              l.text.size() ||
          csv_parse(&p_, nl.data(), nl.size(), field, row, this) != nl.size())
        fail(l.too_long ? "line too long" : "malformed quoting");
    }
    if (csv_fini(&p_, field, row, this) != 0) fail("unterminated quote");
  }

 private:
  void start() {
    if (csv_init(&p_, CSV_STRICT | CSV_STRICT_FINI) != 0) std::abort();
    // libcsv trims spaces and tabs around unquoted fields by default; the
    // hand-written reader keeps them (the entry stage trims).
    csv_set_space_func(&p_, [](unsigned char) { return 0; });
    at_start_ = true;
    count_ = 0;
  }
  void fail(std::string_view why) {
    t_.add(start_line_, {}, {}, {}, {}, why);
    csv_free(&p_);
    start();
  }
  static void field(void* s, std::size_t len, void* self) {
    auto& r = *static_cast<libcsv_reader*>(self);
    if (r.count_ < r.values_.size())
      r.values_[r.count_].assign(static_cast<const char*>(s), len);
    else
      r.values_.emplace_back(static_cast<const char*>(s), len);
    ++r.count_;
  }
  static void row(int, void* self) {
    auto& r = *static_cast<libcsv_reader*>(self);
    r.end_row();
  }
  void end_row() {
    if (!have_header_) {
      std::vector<std::string_view> names(values_.begin(),
                                          values_.begin() + count_);
      std::vector<record_reader::note> notes;
      map_ = detail::map_header(names, start_line_, notes);
      if (!map_.has_loc) std::abort();
      have_header_ = true;
    } else {
      input_record out;
      out.line = start_line_;
      const std::size_t n = std::min(count_, map_.roles.size());
      for (std::size_t i = 0; i < n; ++i)
        detail::assign_field(out, map_.roles[i], values_[i]);
      t_.add(out);
    }
    count_ = 0;
    at_start_ = true;
  }

  tally& t_;
  csv_parser p_{};
  std::vector<std::string> values_;
  std::size_t count_ = 0;
  bool at_start_ = true;
  std::uint64_t start_line_ = 0;
  bool have_header_ = false;
  detail::column_map map_;
};

void read_libcsv(std::string_view data, tally& t) {
  libcsv_reader(t).read(data);
}

// ---- CSV through fast-cpp-csv-parser
// -----------------------------------------

// Not equal behaviour, a reference only: it splits lines itself (no gzip),
// cannot read a quoted field over several lines, needs the column count at
// compile time and throws on the first bad row.
void read_fccp(std::string_view data, tally& t) {
  io::CSVReader<4, io::trim_chars<>, io::double_quote_escape<',', '"'>> in(
      "bench", data.data(), data.data() + data.size());
  in.read_header(io::ignore_extra_column | io::ignore_missing_column, "loc",
                 "lastmod", "changefreq", "priority");
  char *loc = nullptr, *lastmod = nullptr, *changefreq = nullptr,
       *priority = nullptr;
  while (in.read_row(loc, lastmod, changefreq, priority))
    t.add(in.get_file_line(), loc, lastmod, changefreq, priority, {});
}

// ---- CSV, the obvious baseline
// -----------------------------------------------

// std::getline and a split at commas, quotes stripped from a field that has
// them at both ends. Not equal behaviour: no "" inside quotes, no comma or
// line break inside a quoted field, no gzip. This input has none of those,
// so it gives the same records.
void read_getline_split(const std::string& data, tally& t) {
  std::istringstream in(data);
  std::string line;
  std::uint64_t number = 0;
  detail::column_map map;
  std::string_view f[8];
  while (std::getline(in, line)) {
    ++number;
    if (detail::is_blank_line(line)) continue;
    std::size_t count = 0;
    std::string_view rest = line;
    for (;;) {
      const std::size_t comma = rest.find(',');
      std::string_view field = rest.substr(0, comma);
      if (field.size() >= 2 && field.front() == '"' && field.back() == '"')
        field = field.substr(1, field.size() - 2);
      if (count < std::size(f)) f[count++] = field;
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (number == 1) {
      std::vector<record_reader::note> notes;
      map = detail::map_header(std::vector<std::string_view>(f, f + count), 1,
                               notes);
      continue;
    }
    input_record out;
    out.line = number;
    for (std::size_t i = 0; i < std::min(count, map.roles.size()); ++i)
      detail::assign_field(out, map.roles[i], f[i]);
    t.add(out);
  }
}

// ---- setup and registration
// --------------------------------------------------

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr,
                 "reader_libs_bench: cannot read %s (make it with "
                 "benchmarks/reader_libs.sh)\n",
                 path.c_str());
    std::exit(2);
  }
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class Read>
tally hashed(Read&& read) {
  tally t;
  t.hash = true;
  read(t);
  return t;
}

// Aborts unless `got` is the same records as `want`.
void expect_same(const char* name, const tally& want, const tally& got,
                 bool lines = true) {
  if (got.records == want.records && got.problems == want.problems &&
      got.fields == want.fields && (!lines || got.lines == want.lines))
    return;
  std::fprintf(stderr,
               "reader_libs_bench: %s gives other records than the "
               "hand-written reader (%llu records, %llu problems; want "
               "%llu, %llu)\n",
               name, static_cast<unsigned long long>(got.records),
               static_cast<unsigned long long>(got.problems),
               static_cast<unsigned long long>(want.records),
               static_cast<unsigned long long>(want.problems));
  std::exit(1);
}

template <class Read>
void add(const char* name, std::size_t input_bytes, Read read) {
  benchmark::RegisterBenchmark(name, [=](benchmark::State& state) {
    std::uint64_t records = 0;
    for (auto _ : state) {
      tally t;
      read(t);
      benchmark::DoNotOptimize(t.bytes);
      records += t.records;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(input_bytes) *
                            state.iterations());
    state.counters["records/s"] = benchmark::Counter(
        static_cast<double>(records), benchmark::Counter::kIsRate);
  })->Unit(benchmark::kMillisecond);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::string prefix =
      argc > 1 ? argv[1] : "/tmp/bench/data/urls-1000000";
  static const std::string jsonl = slurp(prefix + ".jsonl");
  static const std::string csv = slurp(prefix + ".csv");
  static const simdjson::padded_string jsonl_padded(jsonl);

  const tally want_jsonl =
      hashed([](tally& t) { read_handwritten(jsonl, input_format::jsonl, t); });
  const tally want_csv =
      hashed([](tally& t) { read_handwritten(csv, input_format::csv, t); });
  // The two files hold the same records (reader_inputs.py); CSV's header
  // row shifts its line numbers by one.
  expect_same("the CSV reader", want_jsonl, want_csv, /*lines=*/false);
  expect_same("nlohmann DOM", want_jsonl,
              hashed([](tally& t) { read_nlohmann_dom(jsonl, t); }));
  expect_same("nlohmann SAX", want_jsonl,
              hashed([](tally& t) { read_nlohmann_sax(jsonl, t); }));
  expect_same("simdjson per line", want_jsonl,
              hashed([](tally& t) { read_simdjson_lines(jsonl, t); }));
  expect_same("simdjson, checked", want_jsonl,
              hashed([](tally& t) { read_simdjson_checked(jsonl, t); }));
  // The checks catch what plain On-Demand lets through.
  for (const std::string_view line :
       {R"({"loc":"x"} x)", R"({"loc":"x","t":[1,}]})",
        R"({"loc":"x","t":tru})", R"({"loc":"x","t":01})", R"({"priority":01})",
        R"({"loc":"x","loc":"y"})", "{\"loc\":\"\xFF\"}"}) {
    tally t;
    slow = 0;
    read_simdjson_checked(line, t);
    if (slow != 1) {
      std::fprintf(stderr, "reader_libs_bench: simdjson took %.*s\n",
                   static_cast<int>(line.size()), line.data());
      std::exit(1);
    }
  }
  expect_same("simdjson iterate_many", want_jsonl,
              hashed([](tally& t) { read_simdjson_stream(jsonl_padded, t); }));
  expect_same("libcsv", want_csv,
              hashed([](tally& t) { read_libcsv(csv, t); }));
  expect_same("getline and split", want_csv,
              hashed([](tally& t) { read_getline_split(csv, t); }));
  expect_same("fast-cpp-csv-parser", want_csv,
              hashed([](tally& t) { read_fccp(csv, t); }));

  add("BM_JsonlHandWritten", jsonl.size(),
      [](tally& t) { read_handwritten(jsonl, input_format::jsonl, t); });
  add("BM_JsonlNlohmannDom", jsonl.size(),
      [](tally& t) { read_nlohmann_dom(jsonl, t); });
  add("BM_JsonlNlohmannSax", jsonl.size(),
      [](tally& t) { read_nlohmann_sax(jsonl, t); });
  add("BM_JsonlSimdjsonPerLine", jsonl.size(),
      [](tally& t) { read_simdjson_lines(jsonl, t); });
  add("BM_JsonlSimdjsonChecked", jsonl.size(),
      [](tally& t) { read_simdjson_checked(jsonl, t); });
  add("BM_JsonlSimdjsonIterateMany", jsonl.size(),
      [](tally& t) { read_simdjson_stream(jsonl_padded, t); });
  add("BM_CsvHandWritten", csv.size(),
      [](tally& t) { read_handwritten(csv, input_format::csv, t); });
  add("BM_CsvLibcsv", csv.size(), [](tally& t) { read_libcsv(csv, t); });
  add("BM_CsvGetlineSplit", csv.size(),
      [](tally& t) { read_getline_split(csv, t); });
  add("BM_CsvFastCppCsvParser", csv.size(),
      [](tally& t) { read_fccp(csv, t); });
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
