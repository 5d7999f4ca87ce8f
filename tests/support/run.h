// Helpers for end-to-end tests that run the built sitemill binary on real
// files and check what it leaves on disk.
//
// Not thread-safe: GoogleTest runs tests one after another in one thread.
#ifndef SITEMILL_TESTS_SUPPORT_RUN_H
#define SITEMILL_TESTS_SUPPORT_RUN_H

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill::testing {

/// What a finished (or killed) child process left behind.
struct run_result {
  int exit_code = -1;      ///< exit status; -1 when a signal ended it
  int term_signal = 0;     ///< the signal that ended it, 0 otherwise
  bool timed_out = false;  ///< the timeout hit and the child was SIGKILLed
  std::string out;         ///< everything written to stdout
  std::string err;         ///< everything written to stderr
  long max_rss_kib = 0;    ///< the child's peak resident memory (wait4)
};

/// How to run a child.
struct run_options {
  /// Bytes fed to the child's stdin; std::nullopt connects /dev/null.
  std::optional<std::string> stdin_data;
  /// A run that takes longer is killed and reported as timed out, so a hung
  /// binary fails one test instead of the whole suite.
  std::chrono::milliseconds timeout{60'000};
  /// The child's working directory; empty: the test's.
  std::string cwd = {};
};

/// Runs SITEMILL_BINARY with `args` (argv[1..]) and waits for it.
run_result run_sitemill(const std::vector<std::string>& args,
                        const run_options& options = {});

/// Runs `program` (a path) with `args`, capturing stdout and stderr.
run_result run_program(const std::string& program,
                       const std::vector<std::string>& args,
                       const run_options& options = {});

/// A child that runs in the background with stdout and stderr on /dev/null
/// and stdin on `stdin_path` opened with `stdin_flags` (a FIFO opened
/// O_RDWR is a stdin that never sends a byte and never ends), for tests that
/// kill it at some moment. The destructor kills and reaps it if the test
/// did not.
class background_process {
 public:
  explicit background_process(const std::vector<std::string>& sitemill_args,
                              const std::string& stdin_path = "/dev/null",
                              int stdin_flags = 0 /* O_RDONLY */);
  ~background_process();
  background_process(const background_process&) = delete;
  background_process& operator=(const background_process&) = delete;

  pid_t pid() const noexcept { return pid_; }
  /// True once the child has ended (reaps it without blocking).
  bool finished();
  /// Sends `sig` if the child still runs, then waits for it to end.
  run_result kill_and_wait(int sig);
  /// Waits for the child to end by itself.
  run_result wait();

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

/// A fresh directory under /tmp, removed with everything in it at the end.
class temp_dir {
 public:
  temp_dir();
  /// Under `parent` instead of /tmp.
  explicit temp_dir(const std::string& parent);
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::string& path() const noexcept { return path_; }
  /// path() + "/" + name.
  std::string operator/(std::string_view name) const;

 private:
  std::string path_;
};

/// A file's bytes exactly as on disk; fails the test (and returns "") when
/// it cannot be read.
std::string read_raw(const std::string& path);

/// A file's bytes, gunzipped when they start with the gzip magic 1F 8B (all
/// members, so concatenated gzip streams read whole).
std::string read_file(const std::string& path);

/// Decompresses gzip bytes; std::nullopt when they are not valid gzip.
std::optional<std::string> gunzip(std::string_view bytes);

/// gzip-compresses `bytes` (zlib), for tests that feed gzipped inputs.
std::string gzip(std::string_view bytes);

/// Writes `bytes` to `path`, replacing it.
void write_file(const std::string& path, std::string_view bytes);

/// Names of the regular files in `dir` that do not start with '.', sorted.
std::vector<std::string> list_files(const std::string& dir);

/// Names of every entry in `dir` (dot-files included, "." and ".." not),
/// sorted.
std::vector<std::string> list_all(const std::string& dir);

/// Every regular file of `dir` (dot-files included) mapped to its raw bytes:
/// a snapshot to compare before and after a run.
std::map<std::string, std::string> snapshot(const std::string& dir);

/// Validates `bytes` against the bundled all.xsd (sitemap.xsd with the
/// image, video, news and xhtml schemas) or siteindex.xsd, chosen by the
/// root element, with libxml2 offline (no network, no entity
/// loading). When `expected_root` is not empty the root must have that
/// name. Returns "" when valid, the errors otherwise.
std::string validate_xml(std::string_view bytes,
                         std::string_view expected_root = {});

/// One <url> or <sitemap> element of a parsed document: child element name
/// (loc, lastmod, changefreq, priority) to its text content, entities decoded.
using xml_entry = std::map<std::string, std::string>;

/// Parses a urlset or sitemapindex with libxml2 (offline) and returns its
/// entries in order; fails the test when the bytes are not well-formed.
std::vector<xml_entry> parse_entries(std::string_view bytes);

/// Parses the stdout of a --json run, failing the test unless it is exactly
/// one JSON object (trailing whitespace aside).
nlohmann::json parse_report(const run_result& run);

/// A txt input of `count` distinct URLs https://www.example.com/<stem>/<i>,
/// written once per test binary (large inputs cost time on a shared machine)
/// and removed when the binary exits.
const std::string& shared_url_list(std::size_t count,
                                   std::string_view stem = "p");

/// True when `url` holds only characters RFC 3986 allows in a URI (no space,
/// no non-ASCII, no '#', '%' only before two hex digits).
bool is_uri_text(std::string_view url);

/// One file of a published set.
struct set_file {
  std::string path;
  std::string
      type;  ///< "urlset", "sitemapindex", "text", "stylesheet" or "html"
  std::uint64_t urls = 0;   ///< entries, as the manifest says
  std::uint64_t bytes = 0;  ///< uncompressed size, as the manifest says
  std::string raw;          ///< bytes on disk
  std::string content;      ///< uncompressed bytes
};

/// A published set as read back from disk.
struct published_set {
  std::string entry;
  std::vector<set_file> files;  ///< manifest order
  std::uint64_t urls = 0;  ///< entries over all sitemaps (indexes not counted)

  const set_file* find(std::string_view path) const;
  std::vector<const set_file*> sitemaps()
      const;  ///< urlset and text files, in order
  std::vector<const set_file*> indexes() const;
};

/// What expect_valid_set() checks a set against.
struct set_expectations {
  std::string base_url = "https://www.example.com/";  ///< normalised
  const nlohmann::json* report =
      nullptr;  ///< the --json report of the run that published it
  /// Users' files that may sit beside the set (dot-files too, such as a
  /// user's own ".sitemill-tmp-notes").
  std::vector<std::string> foreign_files;
  /// The set's bookkeeping directory; empty: the default, beside `dir`.
  std::string manifest_dir;
};

/// Reads the set published in `dir` through its manifest and checks it
/// completely: the manifest names exactly the non-dot files on disk (besides
/// foreign ones); no dot-file of sitemill's is in `dir`, and no lock,
/// temporary or journal file is left beside the manifest; every .gz file has a
/// gzip header without time stamp or name and decompresses; every XML file
/// is XSD-valid and every text file holds one URL per line; counts and
/// uncompressed sizes match the manifest and the protocol limits; every <loc>
/// is URI text under the base; an index lists exactly the sitemaps, with
/// absolute locs under the base, and is the entry when there are several;
/// with a report: it names the same files, written equals the URLs in the
/// sitemaps and records == written + duplicates + rejected.
published_set expect_valid_set(const std::string& dir,
                               const set_expectations& expect = {});

/// A checked `sitemill generate --json` run.
struct generate_run {
  run_result run;
  nlohmann::json report;
  published_set set;
};

/// Runs `sitemill generate --json --out OUT args...` (adding --base-url
/// expect.base_url unless args has one), expects exit 0 and checks the
/// published set with expect_valid_set() against the run's report.
generate_run generate_and_check(const std::string& out,
                                const std::vector<std::string>& args,
                                const run_options& options = {},
                                set_expectations expect = {});

/// Every <url> of the set's sitemaps in order (for text files: loc only).
std::vector<xml_entry> all_entries(const published_set& set);

/// The locs of all_entries().
std::vector<std::string> all_locs(const published_set& set);

/// `text` split at '\n' (a last empty piece dropped).
std::vector<std::string> split_lines(std::string_view text);

/// A urlset with one <url><loc> per line, in order: entry i is on line i + 3.
std::string urlset(const std::vector<std::string>& locs);

/// A sitemap index with one <sitemap><loc> per line: entry i is on line i + 3.
std::string sitemapindex(const std::vector<std::string>& locs);

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_RUN_H
