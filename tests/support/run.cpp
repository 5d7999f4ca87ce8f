#include "support/run.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlschemas.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_set>

#include "sitemill/publish/bookkeeping.h"

extern char** environ;

namespace sitemill::testing {
namespace {

// A child that exits early must not kill the test binary with SIGPIPE while
// we are still feeding its stdin; write() then fails with EPIPE instead.
void ignore_sigpipe() {
  static const bool done = [] {
    std::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)done;
}

std::vector<char*> make_argv(const std::string& program,
                             const std::vector<std::string>& args,
                             std::vector<std::string>& storage) {
  storage.clear();
  storage.push_back(program);
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  return argv;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void fill_status(run_result& r, int status) {
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.term_signal = WTERMSIG(status);
  }
}

// posix_spawn with the child's signals as a fresh process would have them:
// ignore_sigpipe() must not leak into sitemill, whose behaviour on a closed
// pipe is part of what is tested.
int spawn(pid_t* pid, const std::string& program,
          const std::vector<std::string>& args,
          const posix_spawn_file_actions_t* actions) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<std::string> storage;
  std::vector<char*> argv = make_argv(program, args, storage);
  int rc =
      ::posix_spawn(pid, program.c_str(), actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  return rc;
}

int wait_for(pid_t pid, long* max_rss_kib = nullptr) {
  int status = 0;
  struct rusage ru {};
  while (::wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  if (max_rss_kib != nullptr) *max_rss_kib = ru.ru_maxrss;
  return status;
}

}  // namespace

run_result run_program(const std::string& program,
                       const std::vector<std::string>& args,
                       const run_options& options) {
  ignore_sigpipe();
  run_result r;
  int out_pipe[2], err_pipe[2], in_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return r;
  }
  const bool feed = options.stdin_data.has_value();
  if (feed && ::pipe2(in_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return r;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (feed)
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  else
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                     O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  if (!options.cwd.empty())
    posix_spawn_file_actions_addchdir_np(&actions, options.cwd.c_str());

  pid_t pid = -1;
  int spawned = spawn(&pid, program, args, &actions);
  posix_spawn_file_actions_destroy(&actions);
  close_fd(out_pipe[1]);
  close_fd(err_pipe[1]);
  close_fd(in_pipe[0]);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot start " << program << ": "
                  << std::strerror(spawned);
    close_fd(out_pipe[0]);
    close_fd(err_pipe[0]);
    close_fd(in_pipe[1]);
    return r;
  }

  std::size_t fed = 0;
  if (feed) {
    ::fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
    if (options.stdin_data->empty()) close_fd(in_pipe[1]);
  }
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  char buf[65536];
  while (out_pipe[0] >= 0 || err_pipe[0] >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd fds[3];
    nfds_t n = 0;
    if (out_pipe[0] >= 0) fds[n++] = {out_pipe[0], POLLIN, 0};
    if (err_pipe[0] >= 0) fds[n++] = {err_pipe[0], POLLIN, 0};
    if (in_pipe[1] >= 0) fds[n++] = {in_pipe[1], POLLOUT, 0};
    int ready = ::poll(fds, n, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) break;
    for (nfds_t i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      int fd = fds[i].fd;
      if (fd == in_pipe[1]) {
        const std::string& data = *options.stdin_data;
        ssize_t w = ::write(fd, data.data() + fed, data.size() - fed);
        if (w > 0) fed += static_cast<std::size_t>(w);
        // The child may stop reading (EPIPE); it has had its chance.
        if (fed == data.size() || (w < 0 && errno != EAGAIN && errno != EINTR))
          close_fd(in_pipe[1]);
        continue;
      }
      ssize_t got = ::read(fd, buf, sizeof buf);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      std::string& sink = fd == out_pipe[0] ? r.out : r.err;
      if (got <= 0) {
        close_fd(fd == out_pipe[0] ? out_pipe[0] : err_pipe[0]);
      } else {
        sink.append(buf, static_cast<std::size_t>(got));
      }
    }
  }
  close_fd(out_pipe[0]);
  close_fd(err_pipe[0]);
  close_fd(in_pipe[1]);
  fill_status(r, wait_for(pid, &r.max_rss_kib));
  return r;
}

run_result run_sitemill(const std::vector<std::string>& args,
                        const run_options& options) {
  return run_program(SITEMILL_BINARY, args, options);
}

// --- background_process ------------------------------------------------------

background_process::background_process(
    const std::vector<std::string>& sitemill_args,
    const std::string& stdin_path, int stdin_flags) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, stdin_path.c_str(),
                                   stdin_flags, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  int spawned = spawn(&pid_, SITEMILL_BINARY, sitemill_args, &actions);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    ADD_FAILURE() << "cannot start " << SITEMILL_BINARY << ": "
                  << std::strerror(spawned);
    pid_ = -1;
  }
}

background_process::~background_process() {
  if (pid_ > 0 && !status_) (void)kill_and_wait(SIGKILL);
}

bool background_process::finished() {
  if (status_) return true;
  if (pid_ <= 0) return true;
  int status = 0;
  pid_t got = ::waitpid(pid_, &status, WNOHANG);
  if (got == pid_) status_ = status;
  return status_.has_value();
}

run_result background_process::kill_and_wait(int sig) {
  if (!finished()) ::kill(pid_, sig);
  return wait();
}

run_result background_process::wait() {
  run_result r;
  if (pid_ <= 0) return r;
  if (!status_) status_ = wait_for(pid_);
  fill_status(r, *status_);
  return r;
}

// --- files -------------------------------------------------------------------

temp_dir::temp_dir() : temp_dir("/tmp") {}

temp_dir::temp_dir(const std::string& parent) {
  std::string pattern = parent + "/sitemill-cli-test-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp in " << parent << ": " << std::strerror(errno);
    return;
  }
  path_ = pattern;
}

temp_dir::~temp_dir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string temp_dir::operator/(std::string_view name) const {
  return path_ + "/" + std::string(name);
}

std::string read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return {};
  }
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

std::optional<std::string> gunzip(std::string_view bytes) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return std::nullopt;
  std::string out;
  char buf[65536];
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  int rc = Z_OK;
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0) break;
      inflateReset(&zs);  // the next member of a concatenated stream
      continue;
    }
    if (rc != Z_OK) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

std::string gzip(std::string_view bytes) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    ADD_FAILURE() << "deflateInit2 failed";
    return {};
  }
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) ADD_FAILURE() << "deflate failed: " << rc;
  return out;
}

std::string read_file(const std::string& path) {
  std::string raw = read_raw(path);
  if (raw.size() < 2 || static_cast<unsigned char>(raw[0]) != 0x1f ||
      static_cast<unsigned char>(raw[1]) != 0x8b)
    return raw;
  auto plain = gunzip(raw);
  if (!plain) {
    ADD_FAILURE() << path << " starts like gzip but does not decompress";
    return {};
  }
  return std::move(*plain);
}

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

std::vector<std::string> list_all(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> list_files(const std::string& dir) {
  std::vector<std::string> names;
  for (auto& name : list_all(dir)) {
    struct stat st;
    if (name.front() != '.' && ::stat((dir + "/" + name).c_str(), &st) == 0 &&
        S_ISREG(st.st_mode))
      names.push_back(std::move(name));
  }
  return names;
}

std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& name : list_all(dir)) {
    struct stat st;
    std::string path = dir + "/" + name;
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
      files[name] = read_raw(path);
  }
  return files;
}

// --- XML ---------------------------------------------------------------------

namespace {

xmlExternalEntityLoader default_loader = nullptr;

// Only the bundled schemas may be read: no DTD, entity or network fetch, so
// a document cannot make validation depend on anything but its own bytes.
// xhtml1-strict.xsd imports xml.xsd by its w3.org URL: the bundled copy
// answers for it, as schemas/catalog.xml maps it for xmllint.
xmlParserInputPtr offline_loader(const char* url, const char* id,
                                 xmlParserCtxtPtr ctxt) {
  static const std::string allowed = std::string(SITEMILL_SCHEMA_DIR) + "/";
  static const std::string xml_xsd = allowed + "xml.xsd";
  if (url != nullptr &&
      std::string_view(url) == "http://www.w3.org/2001/xml.xsd")
    return default_loader(xml_xsd.c_str(), id, ctxt);
  if (url != nullptr && std::string_view(url).starts_with(allowed) &&
      std::string_view(url).find("..") == std::string_view::npos)
    return default_loader(url, id, ctxt);
  return nullptr;
}

void collect_error(void* sink, xmlErrorPtr e) {
  if (e == nullptr) return;
  auto* out = static_cast<std::string*>(sink);
  if (e->level == XML_ERR_WARNING) return;
  *out += "line " + std::to_string(e->line) + ": " +
          (e->message ? e->message : "?");
  if (!out->empty() && out->back() != '\n') *out += '\n';
}

void init_libxml() {
  static const bool done = [] {
    xmlInitParser();
    default_loader = xmlNoNetExternalEntityLoader;
    xmlSetExternalEntityLoader(offline_loader);
    return true;
  }();
  (void)done;
}

// Routes libxml2's errors into one string for the scope of a call.
class error_capture {
 public:
  error_capture() { xmlSetStructuredErrorFunc(&text_, collect_error); }
  ~error_capture() { xmlSetStructuredErrorFunc(nullptr, nullptr); }
  std::string& text() { return text_; }

 private:
  std::string text_;
};

struct schema_deleter {
  void operator()(xmlSchemaPtr s) const { xmlSchemaFree(s); }
};
struct doc_deleter {
  void operator()(xmlDocPtr d) const { xmlFreeDoc(d); }
};
using doc_ptr = std::unique_ptr<xmlDoc, doc_deleter>;

// Parsed once per schema and kept for the whole test binary.
xmlSchemaPtr schema_for(const std::string& file) {
  static std::map<std::string, std::unique_ptr<xmlSchema, schema_deleter>>
      cache;
  auto it = cache.find(file);
  if (it != cache.end()) return it->second.get();
  init_libxml();
  error_capture errors;
  std::string path = std::string(SITEMILL_SCHEMA_DIR) + "/" + file;
  xmlSchemaParserCtxtPtr pc = xmlSchemaNewParserCtxt(path.c_str());
  xmlSchemaPtr schema = pc ? xmlSchemaParse(pc) : nullptr;
  if (pc) xmlSchemaFreeParserCtxt(pc);
  if (schema == nullptr)
    ADD_FAILURE() << "cannot load " << path << ": " << errors.text();
  cache[file].reset(schema);
  return schema;
}

doc_ptr parse_document(std::string_view bytes, std::string& errors) {
  init_libxml();
  error_capture capture;
  // NONET and no NOENT/DTDLOAD: entities stay unexpanded and nothing is
  // fetched.
  xmlDocPtr doc =
      xmlReadMemory(bytes.data(), static_cast<int>(bytes.size()), "sitemap.xml",
                    nullptr, XML_PARSE_NONET | XML_PARSE_HUGE);
  errors = capture.text();
  if (doc == nullptr && errors.empty()) errors = "not well-formed XML";
  return doc_ptr(doc);
}

std::string node_name(xmlNodePtr n) {
  return reinterpret_cast<const char*>(n->name);
}

}  // namespace

std::string validate_xml(std::string_view bytes,
                         std::string_view expected_root) {
  std::string errors;
  doc_ptr doc = parse_document(bytes, errors);
  if (!doc) return errors;
  xmlNodePtr root = xmlDocGetRootElement(doc.get());
  if (root == nullptr) return "no root element";
  std::string name = node_name(root);
  if (!expected_root.empty() && name != expected_root)
    return "root is <" + name + ">, expected <" + std::string(expected_root) +
           ">";
  // all.xsd: sitemap.xsd with the image, video, news and xhtml schemas, so
  // extension content is validated too (a plain urlset validates alike).
  std::string file = name == "urlset"         ? "all.xsd"
                     : name == "sitemapindex" ? "siteindex.xsd"
                                              : "";
  if (file.empty())
    return "root <" + name + "> is neither urlset nor sitemapindex";
  xmlSchemaPtr schema = schema_for(file);
  if (schema == nullptr) return "schema " + file + " did not load";
  xmlSchemaValidCtxtPtr vc = xmlSchemaNewValidCtxt(schema);
  std::string verrors;
  xmlSchemaSetValidStructuredErrors(vc, collect_error, &verrors);
  int rc = xmlSchemaValidateDoc(vc, doc.get());
  xmlSchemaFreeValidCtxt(vc);
  if (rc == 0) return "";
  return verrors.empty() ? "invalid (libxml2 code " + std::to_string(rc) + ")"
                         : verrors;
}

std::vector<xml_entry> parse_entries(std::string_view bytes) {
  std::vector<xml_entry> entries;
  std::string errors;
  doc_ptr doc = parse_document(bytes, errors);
  if (!doc) {
    ADD_FAILURE() << "not well-formed: " << errors;
    return entries;
  }
  xmlNodePtr root = xmlDocGetRootElement(doc.get());
  for (xmlNodePtr e = root ? root->children : nullptr; e; e = e->next) {
    if (e->type != XML_ELEMENT_NODE) continue;
    xml_entry entry;
    for (xmlNodePtr f = e->children; f; f = f->next) {
      if (f->type != XML_ELEMENT_NODE) continue;
      xmlChar* text = xmlNodeGetContent(f);
      entry[node_name(f)] = text ? reinterpret_cast<const char*>(text) : "";
      xmlFree(text);
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

// --- runs and sets -----------------------------------------------------------

nlohmann::json parse_report(const run_result& run) {
  nlohmann::json j =
      nlohmann::json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    ADD_FAILURE() << "stdout is not exactly one JSON object:\n" << run.out;
    return nlohmann::json::object();
  }
  return j;
}

const std::string& shared_url_list(std::size_t count, std::string_view stem) {
  static temp_dir dir;
  static std::map<std::string, std::string> made;
  std::string name = std::string(stem) + "-" + std::to_string(count) + ".txt";
  auto it = made.find(name);
  if (it != made.end()) return it->second;
  std::string text;
  text.reserve(count * 48);
  for (std::size_t i = 0; i < count; ++i) {
    text += "https://www.example.com/";
    text += stem;
    text += '/';
    text += std::to_string(i);
    text += '\n';
  }
  std::string path = dir / name;
  write_file(path, text);
  return made.emplace(name, path).first->second;
}

bool is_uri_text(std::string_view url) {
  static constexpr std::string_view allowed =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/"
      "?[]@!$&'()*+,;=";
  for (std::size_t i = 0; i < url.size(); ++i) {
    if (url[i] == '%') {
      if (i + 2 >= url.size() ||
          !std::isxdigit(static_cast<unsigned char>(url[i + 1])) ||
          !std::isxdigit(static_cast<unsigned char>(url[i + 2])))
        return false;
      i += 2;
    } else if (allowed.find(url[i]) == std::string_view::npos) {
      return false;
    }
  }
  return !url.empty();
}

const set_file* published_set::find(std::string_view path) const {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

std::vector<const set_file*> published_set::sitemaps() const {
  std::vector<const set_file*> out;
  for (const auto& f : files)
    if (f.type == "urlset" || f.type == "text") out.push_back(&f);
  return out;
}

std::vector<const set_file*> published_set::indexes() const {
  std::vector<const set_file*> out;
  for (const auto& f : files)
    if (f.type == "sitemapindex") out.push_back(&f);
  return out;
}

namespace {

bool is_gzip(std::string_view raw) {
  return raw.size() >= 2 && static_cast<unsigned char>(raw[0]) == 0x1f &&
         static_cast<unsigned char>(raw[1]) == 0x8b;
}

// What the protocol allows as written lastmod: a date, or a full time with
// seconds and a zone (sitemap.xsd and the W3C profile both accept these).
const std::regex& lastmod_form() {
  static const std::regex re(
      R"(^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$)");
  return re;
}

// How a file name appears in a URL: RFC 3986 pchar, everything else %XX.
std::string encode_segment(std::string_view name) {
  static constexpr std::string_view keep =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()"
      "*+,;=:@";
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : name) {
    if (keep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      auto b = static_cast<unsigned char>(c);
      out += '%';
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

void check_loc(const std::string& where, const std::string& loc,
               const std::string& base) {
  EXPECT_TRUE(is_uri_text(loc)) << where << ": <loc> is not URI text: " << loc;
  EXPECT_TRUE(loc.starts_with(base))
      << where << ": <loc> is not under " << base << ": " << loc;
  EXPECT_LT(loc.size(), 2048u) << where << ": <loc> too long";
}

}  // namespace

published_set expect_valid_set(const std::string& dir,
                               const set_expectations& expect) {
  published_set set;
  const std::string& base = expect.base_url;

  for (const auto& name : list_all(dir)) {
    if (std::find(expect.foreign_files.begin(), expect.foreign_files.end(),
                  name) != expect.foreign_files.end())
      continue;
    // Bookkeeping lives outside the web root; temporaries go with the run.
    EXPECT_NE(name.front(), '.')
        << dir << ": sitemill left " << name << " in the set directory";
  }
  const std::string book = expect.manifest_dir.empty()
                               ? sitemill::bookkeeping_dir_of(dir)
                               : expect.manifest_dir;
  for (const auto& name : list_all(book)) {
    // The lock exists only while a run holds it (issue 14, defect 4).
    EXPECT_NE(name, "lock") << book << ": lock file left behind";
    EXPECT_FALSE(name.starts_with(".sitemill-tmp-"))
        << book << ": temporary file left: " << name;
    EXPECT_NE(name, "journal-sitemap.json") << book << ": journal left behind";
  }

  nlohmann::json manifest =
      nlohmann::json::parse(read_raw(book + "/manifest-sitemap.json"), nullptr,
                            /*allow_exceptions=*/false);
  if (manifest.is_discarded() || !manifest.is_object() ||
      !manifest.contains("files") || !manifest["files"].is_array() ||
      !manifest.contains("entry")) {
    ADD_FAILURE() << book << ": no usable manifest-sitemap.json";
    return set;
  }
  set.entry = manifest["entry"].get<std::string>();
  std::vector<std::string> expected_names;
  for (const auto& name : expect.foreign_files)
    if (name.front() != '.') expected_names.push_back(name);
  for (const auto& j : manifest["files"]) {
    set_file f;
    f.path = j.value("path", "");
    f.type = j.value("type", "");
    f.urls = j.value("urls", std::uint64_t{0});
    f.bytes = j.value("bytes", std::uint64_t{0});
    expected_names.push_back(f.path);
    set.files.push_back(std::move(f));
  }
  std::sort(expected_names.begin(), expected_names.end());
  EXPECT_EQ(list_files(dir), expected_names)
      << dir
      << ": the non-dot files are not exactly the manifest's (plus users' "
         "files)";
  EXPECT_NE(set.find(set.entry), nullptr)
      << "entry " << set.entry << " is not in the manifest";

  std::unordered_set<std::string> seen_locs;
  // A lambda so ASSERT_* can end the checks of one file.
  auto check_file = [&](set_file& f) {
    const std::string where = dir + "/" + f.path;
    SCOPED_TRACE(where);
    f.raw = read_raw(where);
    if (f.path.ends_with(".gz")) {
      ASSERT_TRUE(is_gzip(f.raw)) << "named .gz but not gzip";
      ASSERT_GE(f.raw.size(), 10u);
      EXPECT_EQ(f.raw[2], 8) << "not deflate";
      // FLG 0: no FNAME (nor comment or extra); MTIME 0: reruns are
      // byte-identical.
      EXPECT_EQ(f.raw[3], 0) << "gzip header flags set (file name stored?)";
      EXPECT_EQ(f.raw.substr(4, 4), std::string(4, '\0'))
          << "gzip header has a time stamp";
      auto plain = gunzip(f.raw);
      ASSERT_TRUE(plain.has_value()) << "does not gunzip";
      f.content = std::move(*plain);
    } else {
      EXPECT_FALSE(is_gzip(f.raw)) << "gzip bytes in a file not named .gz";
      f.content = f.raw;
    }
    EXPECT_EQ(f.bytes, f.content.size())
        << "manifest bytes are not the uncompressed size";
    EXPECT_LE(f.content.size(), 52'428'800u);

    if (f.type == "urlset" || f.type == "sitemapindex") {
      std::string errors = validate_xml(f.content, f.type);
      EXPECT_EQ(errors, "") << "not XSD-valid";
      EXPECT_TRUE(
          f.content.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
      auto entries = parse_entries(f.content);
      EXPECT_EQ(entries.size(), f.urls)
          << "manifest urls differ from the entries inside";
      EXPECT_LE(entries.size(), 50'000u);
      for (const auto& e : entries) {
        auto loc = e.find("loc");
        if (loc == e.end()) continue;  // the XSD check has failed already
        check_loc(where, loc->second, base);
        auto lastmod = e.find("lastmod");
        if (lastmod != e.end()) {
          EXPECT_TRUE(std::regex_match(lastmod->second, lastmod_form()))
              << "lastmod not written as a date or full time: "
              << lastmod->second;
        }
        if (f.type == "urlset") {
          EXPECT_TRUE(seen_locs.insert(loc->second).second)
              << "written twice: " << loc->second;
        }
      }
    } else if (f.type == "text") {
      EXPECT_TRUE(f.content.empty() || f.content.back() == '\n')
          << "last line not ended";
      std::uint64_t lines = 0;
      std::istringstream in(f.content);
      for (std::string line; std::getline(in, line);) {
        ++lines;
        check_loc(where, line, base);
        EXPECT_TRUE(seen_locs.insert(line).second) << "written twice: " << line;
      }
      EXPECT_EQ(lines, f.urls);
      EXPECT_LE(lines, 50'000u);
    } else if (f.type == "stylesheet" || f.type == "html") {
      // The browser view (generate --xsl default, --html): no URLs of its
      // own; tests/cli/browser_view_test.cpp reads it.
      EXPECT_EQ(f.urls, 0u);
      EXPECT_FALSE(f.content.empty());
    } else {
      ADD_FAILURE() << "unknown type " << f.type;
    }
  };
  for (auto& f : set.files) check_file(f);

  // The index: exactly the sitemaps, each once, as absolute URLs under the
  // base.
  auto maps = set.sitemaps();
  auto indexes = set.indexes();
  for (const auto* m : maps) set.urls += m->urls;
  if (maps.size() > 1) {
    EXPECT_FALSE(indexes.empty()) << "several sitemaps but no index";
  }
  if (indexes.empty() && maps.size() == 1) {
    EXPECT_EQ(set.entry, maps[0]->path);
  } else if (!indexes.empty()) {
    EXPECT_EQ(set.entry, indexes[0]->path) << "the entry is not the index";
    std::multiset<std::string> listed, wanted;
    for (const auto* ix : indexes)
      for (const auto& e : parse_entries(ix->content))
        if (e.count("loc")) listed.insert(e.at("loc"));
    for (const auto* m : maps) wanted.insert(base + encode_segment(m->path));
    EXPECT_EQ(listed, wanted) << "the index does not list exactly the sitemaps";
  }

  if (expect.report != nullptr) {
    const nlohmann::json& r = *expect.report;
    EXPECT_EQ(r.value("entry", ""), set.entry);
    if (r.contains("files") && r["files"].is_array() &&
        r["files"].size() == set.files.size()) {
      for (std::size_t i = 0; i < set.files.size(); ++i) {
        const auto& j = r["files"][i];
        EXPECT_EQ(j.value("path", ""), set.files[i].path);
        EXPECT_EQ(j.value("type", ""), set.files[i].type);
        EXPECT_EQ(j.value("urls", std::uint64_t{0}), set.files[i].urls);
        EXPECT_EQ(j.value("bytes", std::uint64_t{0}), set.files[i].bytes);
      }
    } else {
      ADD_FAILURE() << "--json files differ from the manifest: " << r.dump();
    }
    const auto written = r.value("written", std::uint64_t{0});
    EXPECT_EQ(written, set.urls)
        << "--json written is not the URLs in the sitemaps";
    const std::uint64_t rejected =
        r.contains("rejected") ? r["rejected"].size() : 0;
    EXPECT_EQ(r.value("records", std::uint64_t{0}),
              written + r.value("duplicates", std::uint64_t{0}) +
                  r.value("filtered", std::uint64_t{0}) + rejected)
        << "records != written + duplicates + filtered + rejected";
  }
  return set;
}

generate_run generate_and_check(const std::string& out,
                                const std::vector<std::string>& args,
                                const run_options& options,
                                set_expectations expect) {
  generate_run g;
  std::vector<std::string> full = {"generate", "--json", "--out", out};
  if (std::find(args.begin(), args.end(), "--base-url") == args.end()) {
    full.push_back("--base-url");
    full.push_back(expect.base_url);
  }
  full.insert(full.end(), args.begin(), args.end());
  g.run = run_sitemill(full, options);
  EXPECT_EQ(g.run.exit_code, 0) << "stderr:\n" << g.run.err;
  if (g.run.exit_code != 0) return g;
  g.report = parse_report(g.run);
  expect.report = &g.report;
  g.set = expect_valid_set(out, expect);
  return g;
}

std::vector<xml_entry> all_entries(const published_set& set) {
  std::vector<xml_entry> out;
  for (const auto* f : set.sitemaps()) {
    if (f->type == "text") {
      for (auto& line : split_lines(f->content))
        out.push_back({{"loc", std::move(line)}});
    } else {
      auto entries = parse_entries(f->content);
      out.insert(out.end(), entries.begin(), entries.end());
    }
  }
  return out;
}

std::vector<std::string> all_locs(const published_set& set) {
  std::vector<std::string> locs;
  for (auto& e : all_entries(set)) locs.push_back(e["loc"]);
  return locs;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::string urlset(const std::vector<std::string>& locs) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const auto& l : locs) s += "  <url><loc>" + l + "</loc></url>\n";
  return s + "</urlset>\n";
}

std::string sitemapindex(const std::vector<std::string>& locs) {
  std::string s =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const auto& l : locs) s += "  <sitemap><loc>" + l + "</loc></sitemap>\n";
  return s + "</sitemapindex>\n";
}

}  // namespace sitemill::testing
