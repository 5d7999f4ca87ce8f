// Component benchmarks: each stage of source -> entry -> writer -> sink on
// its own, with urls/s and bytes/s counters, so an end-to-end figure from
// compare_peer.sh can be traced to the stage that costs it.
//
// The records mimic ../shared/bench/make_urls.py (same word lists and odds:
// paths of 30..90 characters, 8% with non-ASCII words, 15% with a query that
// holds '&', a third of those an apostrophe; 85% full lastmod with seconds
// and a zone), generated here from a fixed seed so every run times the same
// bytes without needing the script.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "detail/url_set.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/entry.h"
#include "sitemill/entry/fields.h"
#include "sitemill/url/url.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/writer.h"
#include "sitemill/write/xml_escape.h"

namespace {

using namespace sitemill;

constexpr std::string_view kBase = "https://www.example.com/";
// Enough records that the working set leaves L2, as a real input does.
constexpr std::size_t kRecords = std::size_t{1} << 16;
// url_set grows its shards as it fills, so it is timed over more URLs.
constexpr std::size_t kSetUrls = std::size_t{1} << 20;

// splitmix64: the same sequence on every platform, unlike std distributions.
class rng {
 public:
  explicit rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return next() % n; }
  int between(int lo, int hi) {  // inclusive
    return lo + static_cast<int>(below(static_cast<std::size_t>(hi - lo + 1)));
  }
  bool chance(double p) {
    return static_cast<double>(next() >> 11) * 0x1.0p-53 < p;
  }
  template <class T, std::size_t N>
  const T& pick(const T (&items)[N]) {
    return items[below(N)];
  }

 private:
  std::uint64_t state_;
};

constexpr const char* kSections[] = {
    "products", "blog",   "news",    "category", "docs",   "help",    "store",
    "articles", "events", "catalog", "recipes",  "guides", "reviews", "forum",
    "jobs",     "en-us",  "de-de",   "fr-fr",    "media",  "support"};
constexpr const char* kWords[] = {
    "summer",  "winter",  "sale",      "shoes",     "running", "leather",
    "jacket",  "blue",    "red",       "green",     "classic", "modern",
    "garden",  "kitchen", "outdoor",   "travel",    "camera",  "laptop",
    "phone",   "guide",   "review",    "best",      "cheap",   "premium",
    "organic", "coffee",  "tea",       "chocolate", "bread",   "pasta",
    "pizza",   "salad",   "bike",      "helmet",    "tent",    "backpack",
    "watch",   "ring",    "necklace",  "lamp",      "chair",   "table",
    "sofa",    "desk",    "monitor",   "keyboard",  "mouse",   "cable",
    "how-to",  "install", "configure", "update",    "release", "notes",
    "2023",    "2024"};
constexpr const char* kNonAsciiWords[] = {
    "café",        "straße",  "naïve",     "jalapeño", "crème-brûlée",
    "smörgåsbord", "über",    "façade",    "piñata",   "zürich",
    "москва",      "привет",  "東京",      "日本語",   "ελληνικά",
    "łódź",        "español", "coöperate", "mañana",   "résumé"};
constexpr const char* kQueryKeys[] = {"q",    "sort",       "page",
                                      "ref",  "utm_source", "color",
                                      "size", "lang",       "filter"};
constexpr const char* kQueryValues[] = {"asc",        "desc", "2",  "10",
                                        "newsletter", "blue", "xl", "en",
                                        "new",        "top",  "all"};
constexpr const char* kApostropheValues[] = {
    "o'brien", "rock'n'roll", "children's", "it's-new", "l'été", "mcdonald's"};
constexpr const char* kChangefreqs[] = {"always",  "hourly", "daily", "weekly",
                                        "monthly", "yearly", "never"};

struct record {
  std::string loc, lastmod, freq, prio;
};

// Code points, not bytes, as make_urls.py counts path length.
std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string make_path(rng& r, std::size_t id) {
  const std::size_t target = static_cast<std::size_t>(r.between(30, 90));
  const bool non_ascii = r.chance(0.08);
  const bool query = r.chance(0.15);
  std::string q;
  if (query) {
    const int params = r.between(2, 3);
    const int apostrophe_at = r.chance(0.34) ? r.between(0, params - 1) : -1;
    for (int j = 0; j < params; ++j) {
      q += j == 0 ? '?' : '&';
      q += r.pick(kQueryKeys);
      q += '=';
      q +=
          j == apostrophe_at ? r.pick(kApostropheValues) : r.pick(kQueryValues);
    }
  }
  std::string head = r.pick(kSections);
  if (r.chance(0.6)) head.append("/").append(r.pick(kWords));
  std::string slug = r.pick(kWords);
  if (non_ascii) {
    std::string word = r.pick(kNonAsciiWords);
    if (r.chance(0.5)) {
      slug = word.append("-").append(slug);
    } else {
      slug.append("-").append(word);
    }
    if (r.chance(0.3)) head.append("/").append(r.pick(kNonAsciiWords));
  }
  static constexpr const char* kExtensions[] = {"", "", "", "/", ".html"};
  std::string tail = "-";
  tail.append(std::to_string(id)).append(r.pick(kExtensions)).append(q);
  auto length = [&] {
    return utf8_length(head) + 1 + utf8_length(slug) + utf8_length(tail);
  };
  while (length() < target) {
    const std::size_t room = target - length();
    std::string_view w = r.pick(kWords);
    if (w.size() + 1 <= room) {
      slug.append("-").append(w);
    } else {
      slug += '-';
      for (std::size_t i = 0; i + 1 < room || i == 0; ++i)
        slug += static_cast<char>('a' + r.below(26));
    }
  }
  return head.append("/").append(slug).append(tail);
}

std::string make_lastmod(rng& r) {
  // Sized for any int, so -Wformat-truncation has nothing to say.
  char buf[96];
  const int y = r.between(2019, 2025), mo = r.between(1, 12),
            d = r.between(1, 28);
  if (r.chance(0.15)) {
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", y, mo, d);
    return buf;
  }
  const int h = r.between(0, 23), mi = r.between(0, 59), s = r.between(0, 59);
  char tz[32] = "Z";
  if (r.chance(0.5)) {
    static constexpr int kHours[] = {-8, -5, -3, 1, 2, 3, 5, 9, 10};
    static constexpr int kMinutes[] = {0, 0, 0, 30};
    const int oh = r.pick(kHours), om = r.pick(kMinutes);
    std::snprintf(tz, sizeof tz, "%c%02d:%02d", oh < 0 ? '-' : '+',
                  oh < 0 ? -oh : oh, om);
  }
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d%s", y, mo, d, h,
                mi, s, tz);
  return buf;
}

std::vector<record> make_records(std::size_t n, std::uint64_t seed) {
  rng r(seed);
  std::vector<record> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    record rec;
    rec.loc = std::string(kBase) + make_path(r, i);
    rec.lastmod = make_lastmod(r);
    rec.freq = r.pick(kChangefreqs);
    const int p = r.between(0, 10);
    rec.prio = p == 10 ? "1.0" : "0." + std::to_string(p);
    out.push_back(std::move(rec));
  }
  return out;
}

const std::vector<record>& records() {
  static const std::vector<record> r = make_records(kRecords, 20240601);
  return r;
}

url_normalizer normalizer() {
  auto n = url_normalizer::with_base(kBase);
  if (!n) throw std::runtime_error(n.err().message);
  return std::move(n).value();
}

std::vector<std::string> normalized_locs(const std::vector<record>& recs) {
  const url_normalizer n = normalizer();
  std::vector<std::string> out(recs.size());
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (n.normalize(recs[i].loc, out[i]) != url_problem::ok)
      throw std::runtime_error("rejected: " + recs[i].loc);
  return out;
}

const std::vector<std::string>& locs() {
  static const std::vector<std::string> l = normalized_locs(records());
  return l;
}

// Entries as the entry stage hands them to the writer; loc views point into
// locs(), which lives for the whole program.
const std::vector<url_entry>& entries() {
  static const std::vector<url_entry> e = [] {
    std::vector<url_entry> out;
    out.reserve(kRecords);
    for (std::size_t i = 0; i < kRecords; ++i) {
      const record& rec = records()[i];
      url_entry entry;
      entry.loc = locs()[i];
      w3c_datetime d;
      if (parse_w3c_datetime(rec.lastmod, d) == datetime_problem::ok)
        entry.lastmod = d;
      entry.freq = parse_changefreq(rec.freq).value_or(changefreq::unset);
      entry.prio = priority::parse(rec.prio);
      out.push_back(entry);
    }
    return out;
  }();
  return e;
}

template <class F>
std::int64_t total_bytes(F size_of) {
  std::int64_t n = 0;
  for (const record& rec : records())
    n += static_cast<std::int64_t>(size_of(rec));
  return n;
}

void set_counters(benchmark::State& state, std::size_t urls_per_iteration,
                  std::int64_t bytes_per_iteration) {
  state.counters["urls/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()) *
                             static_cast<double>(urls_per_iteration),
                         benchmark::Counter::kIsRate);
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

// Raw locs through url_normalizer::normalize with the base and location rule,
// as generate does for every record. Bytes: raw loc bytes read.
void BM_NormalizeUrl(benchmark::State& state) {
  const auto& recs = records();
  const url_normalizer n = normalizer();
  std::string out;
  out.reserve(256);
  for (auto _ : state) {
    for (const record& rec : recs) {
      url_problem p = n.normalize(rec.loc, out);
      benchmark::DoNotOptimize(p);
      benchmark::DoNotOptimize(out.data());
    }
  }
  set_counters(state, recs.size(),
               total_bytes([](const record& r) { return r.loc.size(); }));
}
BENCHMARK(BM_NormalizeUrl);

// The same into a normalized_url, which also records the offsets of the
// components (check, robots, IndexNow and the site source read them).
void BM_NormalizeUrlComponents(benchmark::State& state) {
  const auto& recs = records();
  const url_normalizer n = normalizer();
  normalized_url out;
  for (auto _ : state) {
    for (const record& rec : recs) {
      url_problem p = n.normalize(rec.loc, out);
      benchmark::DoNotOptimize(p);
      benchmark::DoNotOptimize(out.href().data());
    }
  }
  set_counters(state, recs.size(),
               total_bytes([](const record& r) { return r.loc.size(); }));
}
BENCHMARK(BM_NormalizeUrlComponents);

// lastmod text -> w3c_datetime -> the text written into <lastmod>.
void BM_ParseFormatLastmod(benchmark::State& state) {
  const auto& recs = records();
  char buf[max_lastmod_length];
  for (auto _ : state) {
    for (const record& rec : recs) {
      w3c_datetime d;
      datetime_problem p = parse_w3c_datetime(rec.lastmod, d);
      benchmark::DoNotOptimize(p);
      std::size_t len = format_lastmod(d, buf);
      benchmark::DoNotOptimize(len);
      benchmark::ClobberMemory();
    }
  }
  set_counters(state, recs.size(),
               total_bytes([](const record& r) { return r.lastmod.size(); }));
}
BENCHMARK(BM_ParseFormatLastmod);

// Escaping normalised locs (what the writer escapes: '&' and '\'' survive
// normalisation) into a reused buffer. Bytes: loc bytes read.
void BM_AppendXmlEscaped(benchmark::State& state) {
  const auto& l = locs();
  std::int64_t bytes = 0;
  for (const std::string& s : l) bytes += static_cast<std::int64_t>(s.size());
  std::string out;
  out.reserve(1024);
  for (auto _ : state) {
    for (const std::string& s : l) {
      out.clear();
      append_xml_escaped(out, s);
      benchmark::DoNotOptimize(out.data());
    }
  }
  set_counters(state, l.size(), bytes);
}
BENCHMARK(BM_AppendXmlEscaped);

// The whole entry stage: trim, normalise, parse the three fields.
void BM_EntryBuild(benchmark::State& state) {
  const auto& recs = records();
  entry_builder builder(normalizer());
  url_entry entry;
  std::vector<field_warning> warnings;
  for (const record& rec : recs) {  // also warms the builder's buffers
    if (builder.build(rec.loc, rec.lastmod, rec.freq, rec.prio, entry, warnings)
                .problem != url_problem::ok ||
        !warnings.empty()) {
      state.SkipWithError(
          ("unexpected rejection or warning: " + rec.loc).c_str());
      return;
    }
  }
  for (auto _ : state) {
    for (const record& rec : recs) {
      auto outcome = builder.build(rec.loc, rec.lastmod, rec.freq, rec.prio,
                                   entry, warnings);
      benchmark::DoNotOptimize(outcome);
      benchmark::DoNotOptimize(entry);
    }
  }
  set_counters(state, recs.size(), total_bytes([](const record& r) {
                 return r.loc.size() + r.lastmod.size() + r.freq.size() +
                        r.prio.size() + 4;  // three tabs and a newline
               }));
}
BENCHMARK(BM_EntryBuild);

// Counts and drops what it is given, so the writer alone is timed.
class discard_sink final : public sink {
 public:
  explicit discard_sink(std::uint64_t* bytes) : bytes_(bytes) {}
  status write(const char* /*data*/, std::size_t size) override {
    *bytes_ += size;
    return status::ok();
  }
  status close() override { return status::ok(); }

 private:
  std::uint64_t* bytes_;
};

// Serialising entries into urlset XML, rotating files at the protocol limits.
// Bytes: XML produced.
void BM_SitemapWriterAdd(benchmark::State& state) {
  const auto& e = entries();
  std::uint64_t bytes = 0;
  sitemap_writer writer(
      {}, [&bytes](std::size_t) -> result<std::unique_ptr<sink>> {
        return std::unique_ptr<sink>(std::make_unique<discard_sink>(&bytes));
      });
  for (auto _ : state) {
    for (const url_entry& entry : e) {
      add_status s = writer.add(entry);
      benchmark::DoNotOptimize(s);
    }
  }
  if (!writer.finish()) {
    state.SkipWithError(writer.error().c_str());
    return;
  }
  state.counters["urls/s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(e.size()),
      benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_SitemapWriterAdd);

// One urlset file of about 10 MB, written by sitemap_writer from the records.
struct urlset_file {
  std::string xml;
  std::size_t urls = 0;
};

const urlset_file& ten_mb_urlset() {
  static const urlset_file f = [] {
    std::deque<std::string> files;
    writer_options o;
    o.max_bytes = 10'000'000;
    sitemap_writer w(std::move(o),
                     [&files](std::size_t) -> result<std::unique_ptr<sink>> {
                       files.emplace_back();
                       return std::unique_ptr<sink>(
                           std::make_unique<memory_sink>(&files.back()));
                     });
    for (const url_entry& e : entries())
      if (w.add(e) != add_status::added) throw std::runtime_error(w.error());
    if (!w.finish()) throw std::runtime_error(w.error());
    return urlset_file{std::move(files.front()), w.parts().front().urls};
  }();
  return f;
}

// gzip_compress on one thread at each level (generate spreads files over the
// cores). Bytes: uncompressed XML in; "ratio" is compressed / uncompressed.
void BM_GzipCompress(benchmark::State& state, compression level) {
  const urlset_file& f = ten_mb_urlset();
  std::size_t out_size = 0;
  for (auto _ : state) {
    std::string gz = gzip_compress(f.xml, level);
    out_size = gz.size();
    benchmark::DoNotOptimize(gz.data());
  }
  set_counters(state, f.urls, static_cast<std::int64_t>(f.xml.size()));
  state.counters["ratio"] =
      static_cast<double>(out_size) / static_cast<double>(f.xml.size());
}
BENCHMARK_CAPTURE(BM_GzipCompress, fast, compression::fast)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GzipCompress, normal, compression::normal)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_GzipCompress, best, compression::best)
    ->Unit(benchmark::kMillisecond);

// Duplicate detection: distinct normalised URLs into a fresh url_set, growth
// included. "bytes/url" is the table memory it ends with.
void BM_UrlSetInsert(benchmark::State& state) {
  static const std::vector<std::string> urls =
      normalized_locs(make_records(kSetUrls, 7));
  std::int64_t bytes = 0;
  for (const std::string& u : urls)
    bytes += static_cast<std::int64_t>(u.size());
  double bytes_per_url = 0;
  for (auto _ : state) {
    detail::url_set set;
    for (const std::string& u : urls) {
      bool inserted = set.insert(u);
      benchmark::DoNotOptimize(inserted);
    }
    bytes_per_url = static_cast<double>(set.memory_bytes()) /
                    static_cast<double>(set.size());
  }
  set_counters(state, urls.size(), bytes);
  state.counters["bytes/url"] = bytes_per_url;
}
BENCHMARK(BM_UrlSetInsert)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
