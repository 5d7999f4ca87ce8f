// sitemill internals: check --audit, the URLs a run's sitemaps list,
// fetched once every document is read (check_options::audit).
#ifndef SITEMILL_CHECK_AUDIT_H
#define SITEMILL_CHECK_AUDIT_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill::detail {

/// One URL to audit, and where its <url> is.
struct audit_entry {
  std::size_t slot = 0;  ///< its document's report in check_report
  std::uint64_t line = 0, column = 0;
  std::string loc;
  std::string lastmod;  ///< as written; "" when none
};

/// The URLs of the run, in reading order, up to a cap.
class audit_list {
 public:
  explicit audit_list(std::size_t max) : max_(max) {}
  /// False once the cap is reached, the first time only (the caller says
  /// so once); later ones are dropped without a word.
  bool add(std::size_t slot, std::string_view loc, std::string_view lastmod,
           std::uint64_t line, std::uint64_t column);
  /// A report withdrawn from slot `slot`: its URLs go, and later slots
  /// move down by one, as check_report::documents does.
  void withdraw(std::size_t slot);
  /// The URL whose host and port the URLs of slot `slot` may be fetched
  /// on (walker.h, "Fetch scope"): the sitemap's URL after redirects, or
  /// the site whose robots.txt cross-submits it. Never set: any host (the
  /// user's own file, whose URL is not known).
  void set_scope(std::size_t slot, std::string url);
  /// The scope set for `slot`; "" when none.
  std::string_view scope(std::size_t slot) const;
  std::vector<audit_entry>& entries() noexcept { return entries_; }

 private:
  std::size_t max_;
  bool told_full_ = false;
  std::vector<audit_entry> entries_;
  std::map<std::size_t, std::string> scopes_;  // by slot
};

}  // namespace sitemill::detail

#endif  // SITEMILL_CHECK_AUDIT_H
