// The flags that say where and how sitemaps are submitted to Search Console
// and Bing Webmaster Tools, shared by `sitemill submit` and `generate
// --submit`. Secrets never come on the command line: Google's key is a file
// (--google-key, or SITEMILL_GOOGLE_KEY naming it), Bing's API key a file
// (--bing-key-file) or the environment (SITEMILL_BING_API_KEY).
#ifndef SITEMILL_CLI_SUBMIT_FLAGS_H
#define SITEMILL_CLI_SUBMIT_FLAGS_H

#include <CLI/CLI.hpp>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/notify/announce.h"
#include "sitemill/notify/submit.h"
#include "vocabulary.h"

namespace sitemill::cli {

struct submit_flags {
  std::vector<std::string> engines;  ///< "google", "bing"; empty: not asked
  std::string google_key;            ///< a key file's path
  std::string bing_key_file;
  std::string site;
  std::string google_api_url{google_default_api_url};
  std::string bing_api_url{bing_default_api_url};

  /// Declares the flags on `cmd` in `group`: `engines_flag` (--to, --submit)
  /// and `site_flag` (--site, --submit-site) are named by the command.
  void add_to(CLI::App& cmd, const char* engines_flag, const char* site_flag,
              const char* group);
  /// Fills `out` for the engines named, or, when none is and `all_with_keys`,
  /// for every engine whose key is given. Reads the key files; false after
  /// telling stderr, as `who`, what cannot be read or is missing.
  bool read(submit_options& out, const char* who, bool all_with_keys) const;
};

/// The environment variable Bing's API key may come from.
inline constexpr const char* bing_key_variable = "SITEMILL_BING_API_KEY";

/// verbose_trace() with the secrets of `options` hidden (Bing's key is in
/// its request URL); empty without -v.
std::function<void(std::string_view)> secret_free_trace(
    const submit_options& options);

/// The submission's messages put in the command's `words`.
void to_cli_words(submit_announcement& done, std::span<const term> words);

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_SUBMIT_FLAGS_H
