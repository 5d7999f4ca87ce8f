// sitemill internals: one input of stats or diff read through the one
// sitemap_walker, its URL entries handed on one by one.
#ifndef SITEMILL_INSPECT_SET_WALK_H
#define SITEMILL_INSPECT_SET_WALK_H

#include <cstdint>
#include <functional>
#include <string>

#include "sitemill/inspect/set_input.h"

namespace sitemill::detail {

/// Told what a walk of a set reads, in document order.
class set_visitor {
 public:
  virtual ~set_visitor() = default;
  /// A document was read (an index before its children).
  virtual void on_document(const walk_document& /*doc*/,
                           const walk_read& /*r*/) {}
  /// An entry of a document that is not an index (urlset, text, feed).
  virtual void on_url(const parsed_entry& e, document_kind kind) = 0;
  virtual void on_diagnostic(const diagnostic& /*d*/) {}
  /// A document that was not read (or not to its end), and why, in words.
  virtual void on_not_read(const walk_document& /*doc*/,
                           const std::string& /*why*/) {}
};

/// How a walk ended.
struct set_walk_outcome {
  /// The input itself could not be read at all: the message says why.
  std::string unreadable;
  /// Documents not read, or not read to their end (a child that is
  /// missing, a truncated file, a cap).
  std::uint64_t incomplete = 0;
  std::uint64_t documents = 0;  ///< documents read
  /// What the input turned out to be (unknown: not a sitemap at all).
  document_kind target_kind = document_kind::unknown;
};

/// Walks `in` with `options`, telling `visitor`. `cancelled` is polled
/// between blocks.
set_walk_outcome walk_set(const set_input& in, const inspect_options& options,
                          set_visitor& visitor,
                          std::function<bool()> cancelled = {});

}  // namespace sitemill::detail

#endif  // SITEMILL_INSPECT_SET_WALK_H
