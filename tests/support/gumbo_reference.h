// The reference reading of an HTML page for the differential test of
// scan_html() (tests/html_scan_differential_test.cpp).
//
// Why it exists: scan_html() reads pages with a hand-written WHATWG HTML5
// tokenizer and a light tree tracker (html, head and body insertion modes,
// an open-element stack) instead of a full tree builder, for speed. Whether
// that tokenizer reads every odd input as HTML5 does is checked against an
// independent implementation: gumbo, a complete HTML5 tree parser, walked
// with the rules scan_html() used when it was itself built on gumbo. The
// library no longer needs gumbo; the tests keep it for this oracle.
//
// gumbo_scan_html() reports every html_facts field as html_page.h describes
// it, the content hash (rule version 1) included, computed over gumbo's
// tree as sitemill computed it before its own parser.
//
// Thread-safe (gumbo keeps no global state); slow (gumbo parses at about
// 18 MB/s): for tests only.
#ifndef SITEMILL_TESTS_SUPPORT_GUMBO_REFERENCE_H
#define SITEMILL_TESTS_SUPPORT_GUMBO_REFERENCE_H

#include <string_view>

#include "sitemill/html/html_page.h"

namespace sitemill::testing {

/// The facts of `html` as gumbo's HTML5 tree and html_page.h's rules give
/// them. Never fails.
html_facts gumbo_scan_html(std::string_view html,
                           const html_scan_options& options);

/// The tree-construction steps gumbo took on a document that reorder or
/// repeat what a walk of its tree reads against the order of its tags, and
/// that a tokenizer with a light tracker does not take.
struct gumbo_fixups {
  /// An <a href> was cloned: reopened after an end tag closed its parent
  /// ("reconstruct the active formatting elements") or by the adoption
  /// agency algorithm, so its link is read twice.
  bool link_cloned = false;
  /// An element stands in the tree before one that came earlier in the
  /// source: foster-parented out of a <table>, which it is read before.
  bool reordered = false;

  [[nodiscard]] bool any() const noexcept { return link_cloned || reordered; }
};

/// The fixups gumbo's tree for `html` shows, outside <template>, which is
/// not read: clones by their GumboNode::parse_flags, reordering by the
/// source offsets of the elements made from tags (gumbo 0.10 does not flag
/// foster parenting). Never fails.
gumbo_fixups find_gumbo_fixups(std::string_view html);

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_GUMBO_REFERENCE_H
