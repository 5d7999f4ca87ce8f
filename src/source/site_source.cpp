// The directory source's public face (site_source.h): opening it, the
// record_source, and the lastmod policies. The reader itself is
// site_reader.h: its walk in site_walk.cpp, its judging of a page in
// site_page.cpp.
#include "sitemill/source/site_source.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "sitemill/date/w3c_datetime.h"
#include "sitemill/limits.h"
#include "source/site_files.h"
#include "source/site_reader.h"

namespace sitemill {
namespace {

// Days since 1970-01-01 to a civil date (Howard Hinnant's civil_from_days).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m,
                     unsigned& d) noexcept {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) ++y;
}

}  // namespace

std::optional<lastmod_policy> parse_lastmod_policy(
    std::string_view name) noexcept {
  if (name == "mtime") return lastmod_policy::mtime;
  if (name == "content") return lastmod_policy::content;
  if (name == "none") return lastmod_policy::none;
  if (name == "page") return lastmod_policy::page;
  return std::nullopt;
}

std::string lastmod_from_unix_time(std::int64_t seconds) {
  constexpr std::int64_t day = 86400;
  std::int64_t days = seconds / day;
  std::int64_t rest = seconds % day;
  if (rest < 0) {
    rest += day;
    --days;
  }
  std::int64_t year = 0;
  unsigned month = 0, mday = 0;
  civil_from_days(days, year, month, mday);
  if (year < 1 || year > 9999) return {};
  w3c_datetime t;
  t.year = static_cast<std::int16_t>(year);
  t.month = static_cast<std::uint8_t>(month);
  t.day = static_cast<std::uint8_t>(mday);
  t.hour = static_cast<std::uint8_t>(rest / 3600);
  t.minute = static_cast<std::uint8_t>(rest / 60 % 60);
  t.second = static_cast<std::uint8_t>(rest % 60);
  t.zulu = true;
  t.form = datetime_form::seconds;
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(t, buf));
}

std::string site_directory_url(std::string_view root, std::string_view base_url,
                               std::string_view path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path r = fs::weakly_canonical(fs::absolute(fs::path(root), ec), ec);
  if (ec) return {};
  const fs::path p = fs::weakly_canonical(fs::absolute(fs::path(path), ec), ec);
  if (ec) return {};
  auto normalizer = url_normalizer::with_base(base_url);
  if (!normalizer) return {};
  // Component by component, so that "public2" is not inside "public".
  auto ri = r.begin(), pi = p.begin();
  for (; ri != r.end() && !ri->empty(); ++ri, ++pi)
    if (pi == p.end() || *ri != *pi) return {};
  std::string url(normalizer->base());
  bool below = false;
  for (; pi != p.end(); ++pi) {
    const std::string name = pi->string();
    if (name.empty() || name == ".") continue;
    detail::append_url_path(url, name);
    url.push_back('/');
    below = true;
  }
  if (!below) return {};
  normalized_url u;
  if (normalize_url(url, u) != url_problem::ok) return {};
  return std::string(u.href());
}

result<std::unique_ptr<record_reader>> open_site_source(
    const site_source_options& options) {
  auto normalizer = url_normalizer::with_base(options.base_url);
  if (!normalizer) {
    return error{"base URL " + options.base_url + ": " +
                 normalizer.err().message};
  }
  auto patterns = site_patterns::make(options.patterns);
  if (!patterns) return std::move(patterns).err();
  if (options.lastmod == lastmod_policy::content && options.state == nullptr) {
    return error{"`lastmod` content needs a state database (`state`)",
                 "lastmod"};
  }
  std::string root = options.root.empty() ? "." : options.root;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  char* real = ::realpath(root.c_str(), nullptr);
  if (real == nullptr) {
    return error{"cannot read site directory " + options.root + ": " +
                 detail::describe_errno(errno)};
  }
  std::string root_real = real;
  std::free(real);
  auto reader = std::make_unique<detail::site_reader>(
      options, std::move(normalizer).value(), std::move(patterns).value(),
      std::move(root), std::move(root_real));
  if (status s = reader->start(); !s) return s.err();
  return std::unique_ptr<record_reader>(std::move(reader));
}

namespace {

class directory final : public record_source {
 public:
  explicit directory(site_source_options o) : o_(std::move(o)) {}
  std::string name() const override { return o_.root; }
  bool applies_patterns() const noexcept override { return true; }
  status validate(const source_context& context) const override {
    if (o_.lastmod == lastmod_policy::content && !context.has_state)
      return error{
          "`lastmod` content needs `state_path` to remember content hashes",
          "lastmod"};
    return {};
  }
  result<std::unique_ptr<record_reader>> open(
      const source_context& context) const override {
    site_source_options o = o_;
    o.base_url = std::string(context.base_url);
    o.state = context.state;
    return open_site_source(o);
  }

 private:
  site_source_options o_;
};

}  // namespace

std::shared_ptr<const record_source> directory_source(
    site_source_options options) {
  return std::make_shared<directory>(std::move(options));
}

}  // namespace sitemill