// A section's entries parked until generate's input ends (set_writers.h):
// the record of one entry as the writers need it, and a file of such
// records kept in the order they came.
//
// Why a file of its own per section and no open descriptor: a run may have
// up to generate_options::max_sections sections, and a writer (or a stable
// layout's 256 partition files) held open for each would cost tens of MiB
// and thousands of descriptors. A parked section costs its path and a
// buffer of at most park_buffer_bytes, which is appended to the file
// (opened, written, closed) when full; read back once at the end.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_SECTION_PARK_H
#define SITEMILL_GENERATE_SECTION_PARK_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "generate/stable_layout.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/result.h"

namespace sitemill::detail {

/// A parked entry whose duplicate check waits (url_dedup.h): its number
/// among the deferred records, and where it was read (generate's input and
/// line), to report it if it turns out to repeat an earlier URL.
struct parked_deferral {
  std::uint64_t number = 0;
  std::uint32_t input = 0;
  std::uint64_t line = 0;
};

/// An entry as the writer takes it (sitemap_writer::add_serialized).
struct parked_entry {
  std::string_view xml;
  std::optional<w3c_datetime> lastmod;
  extension_mask uses = 0;
  std::optional<parked_deferral> deferral;  ///< not the writer's
};

/// Appends `e`'s record to `out`: its xml, then its tail
/// (append_parked_tail()). The xml comes first so that records of one
/// section start alike (layout_spool leaves out what they share).
void append_parked(std::string& out, const parked_entry& e);
/// Appends a record's tail to `out`: the deferral and the lastmod if there
/// are, which there are, and the extensions; read from the record's end.
void append_parked_tail(std::string& out,
                        const std::optional<w3c_datetime>& lastmod,
                        extension_mask uses,
                        const parked_deferral* deferral = nullptr);
/// The entry of a record append_parked() made (views into `record`).
parked_entry read_parked(std::string_view record);
/// The bytes of a record's xml, without reading the record.
std::uint32_t parked_xml_size(std::string_view record);
/// True when the record carries a deferral, without reading the record.
bool parked_deferred(std::string_view record);
/// The record's deferral, if it has one, without reading the rest.
std::optional<parked_deferral> parked_deferral_of(std::string_view record);
/// The record without its deferral (in `scratch` when it had one): what is
/// parked again once its fate is known.
std::string_view without_deferral(std::string_view record,
                                  std::string& scratch);
/// The extensions a record's entry uses, without reading the record: its
/// last byte (append_parked_tail()).
inline extension_mask parked_uses(std::string_view record) {
  return static_cast<extension_mask>(record.back());
}

class section_park {
 public:
  static constexpr std::size_t park_buffer_bytes = 32 * 1024;

  /// Parks into `path` (created at the first flush, which fails if it
  /// exists); the destructor removes it.
  explicit section_park(std::string path);
  ~section_park();
  section_park(const section_park&) = delete;
  section_park& operator=(const section_park&) = delete;

  /// Parks one record (append_parked()) with its URL's fingerprint.
  [[nodiscard]] status add(std::uint64_t fingerprint, std::string_view record);
  /// Hands every record back in the order added, once.
  [[nodiscard]] status replay(
      const std::function<status(std::uint64_t, std::string_view)>& each);

  /// The entries, the bytes of their xml and the extensions they use
  /// (as marks), all told.
  const prefix_tally& tally() const noexcept { return tally_; }
  /// Bytes written to the file so far.
  std::uint64_t disk_bytes() const noexcept { return disk_bytes_; }

 private:
  status flush();
  std::string path_;
  std::string buffer_;
  bool created_ = false;
  prefix_tally tally_;
  std::uint64_t disk_bytes_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_SECTION_PARK_H
