// The library names its options and functions in backquotes ("`max_urls`
// must be from 1 to 50,000", result.h); the CLI names them by its flags. This
// is the one place that says which flag each library term is, per command,
// so that what the CLI prints keeps naming the flags a user typed.
#ifndef SITEMILL_CLI_VOCABULARY_H
#define SITEMILL_CLI_VOCABULARY_H

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill::cli {

/// A library term and how a command says it.
struct term {
  std::string_view library;  ///< as the library writes it, without backquotes
  std::string cli;           ///< a flag ("--max-urls") or a short phrase
};

/// How one command says the library's terms.
using vocabulary = std::vector<term>;

/// Puts every backquoted term of `text` that `words` knows in the command's
/// words; the rest of the text, unknown terms included, stays as it was.
/// Cheap when the text holds no backquote, as most messages do.
void to_cli_words(std::string& text, std::span<const term> words);

/// to_cli_words() on a copy.
std::string in_cli_words(std::string_view text, std::span<const term> words);

/// The terms of `sitemill generate`; `indexnow_key` is the --indexnow-key
/// given, which the advice about a missing key file repeats.
vocabulary generate_words(std::string_view indexnow_key);
/// The terms of `sitemill indexnow`; `key` is the --key given.
vocabulary indexnow_words(std::string_view key);
/// The terms of `sitemill submit`.
vocabulary submit_words();
/// The terms of `sitemill check`.
vocabulary check_words();
/// The terms of `sitemill stats` and `sitemill diff`.
vocabulary inspect_words();
/// The terms of `sitemill report`: how stats and diff read a set,
/// --lenient-schema, and check's other flags named as such (report runs
/// check without them).
vocabulary report_words();
/// The terms of `sitemill merge`.
vocabulary merge_words();
/// The terms of `sitemill audit`: the crawl's, its own.
vocabulary audit_words();
/// The terms of `sitemill robots`.
vocabulary robots_words();

}  // namespace sitemill::cli

#endif  // SITEMILL_CLI_VOCABULARY_H
