#include "detail/inflate.h"

#include <isa-l/igzip_lib.h>
#include <zlib.h>  // crc32() for the header CRC

#include <algorithm>
#include <new>

namespace sitemill::detail {

namespace {
// ISA-L counts in uint32_t; clamp so that a huge buffer is never misread.
constexpr std::size_t max_uint = std::numeric_limits<std::uint32_t>::max();

// RFC 1952 2.3.1 FLG bits.
constexpr std::uint8_t fhcrc = 0x02, fextra = 0x04, fname = 0x08,
                       fcomment = 0x10, freserved = 0xE0;
// Header faults ISA-L has no code for (its codes are negative).
constexpr int bad_flags = 1, bad_header_crc = 2;

// ISA-L answers with codes; these are the words zlib uses for the same
// faults, so messages read as they did.
const char* corrupt_words(int rc) noexcept {
  switch (rc) {
    case bad_flags:
      return "unknown header flags set";
    case bad_header_crc:
      return "header crc mismatch";
    case ISAL_INVALID_BLOCK:
      return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
      return "invalid code in a deflate block";
    case ISAL_INVALID_LOOKBACK:
      return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
      return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    default:
      return "corrupt stream";
  }
}

// A member's deflate data: raw deflate followed by the gzip trailer, whose
// CRC-32 and length ISA-L checks; the largest window.
void start_body(inflate_state* s) noexcept {
  isal_inflate_reset(s);
  s->crc_flag = ISAL_GZIP_NO_HDR_VER;
  s->hist_bits = 0;
}
}  // namespace

// After a part of the header, the next one its flags call for.
void gzip_inflater::next_part() noexcept {
  part_seen_ = 0;
  switch (part_) {
    case part::fixed:
      if ((flags_ & fextra) != 0) {
        part_ = part::xlen;
        return;
      }
      [[fallthrough]];
    case part::xlen:
    case part::extra:
      if ((flags_ & fname) != 0) {
        part_ = part::name;
        return;
      }
      [[fallthrough]];
    case part::name:
      if ((flags_ & fcomment) != 0) {
        part_ = part::comment;
        return;
      }
      [[fallthrough]];
    case part::comment:
      if ((flags_ & fhcrc) != 0) {
        part_ = part::hcrc;
        return;
      }
      [[fallthrough]];
    case part::hcrc:
    case part::body:
      part_ = part::body;
      return;
  }
}

int gzip_inflater::read_header(const char* in, std::size_t size,
                               std::size_t& used) noexcept {
  used = 0;
  while (part_ != part::body && used < size) {
    const auto b = static_cast<std::uint8_t>(in[used]);
    ++used;
    const std::uint32_t k = part_seen_++;
    switch (part_) {
      case part::fixed:
        if ((k == 0 && b != 0x1F) || (k == 1 && b != 0x8B))
          return ISAL_INVALID_WRAPPER;
        if (k == 2 && b != 8) return ISAL_UNSUPPORTED_METHOD;
        if (k == 3) {
          if ((b & freserved) != 0) return bad_flags;
          flags_ = b;
        }
        break;
      case part::xlen:
        extra_len_ |= static_cast<std::uint32_t>(b) << (8 * k);
        break;
      case part::extra:
        break;
      case part::name:
      case part::comment:
        if (b == 0) {
          header_crc_ = static_cast<std::uint32_t>(crc32(header_crc_, &b, 1));
          next_part();
          continue;
        }
        break;
      case part::hcrc:
        hcrc_ = static_cast<std::uint16_t>(hcrc_ | (b << (8 * k)));
        if (k == 1) {
          if (hcrc_ != (header_crc_ & 0xFFFF)) return bad_header_crc;
          next_part();
        }
        continue;  // the CRC16 is not part of what it covers
      case part::body:
        break;
    }
    header_crc_ = static_cast<std::uint32_t>(crc32(header_crc_, &b, 1));
    if (part_ == part::fixed && part_seen_ == 10) {
      next_part();
    } else if (part_ == part::xlen && part_seen_ == 2) {
      part_ = part::extra;
      part_seen_ = 0;
      if (extra_len_ == 0) next_part();
    } else if (part_ == part::extra && part_seen_ == extra_len_) {
      next_part();
    }
  }
  if (part_ == part::body) start_body(st_.get());
  return 0;
}

void gzip_inflater::state_deleter::operator()(inflate_state* s) const noexcept {
  delete s;
}

gzip_inflater::~gzip_inflater() = default;

const char* gzip_inflater::message() const noexcept {
  switch (state_) {
    case status::ok:
      return "ok";
    case status::trailing_data:
      return "bytes that are not gzip follow the last member";
    case status::corrupt:
      return message_ != nullptr ? message_ : "corrupt stream";
    case status::output_limit:
      return "the data inflates beyond the limit";
    case status::no_memory:
      return "out of memory in the gzip decoder";
  }
  return "corrupt stream";
}

gzip_inflater::step gzip_inflater::inflate(const char* in, std::size_t in_size,
                                           char* out,
                                           std::size_t out_size) noexcept {
  step s;
  if (state_ != status::ok) {
    s.result = state_;
    return s;
  }
  for (;;) {
    if (!in_member_) {
      if (s.consumed == in_size) break;
      if (!st_) {
        // Zeroed: ISA-L's init leaves parts of the state as they were.
        st_.reset(new (std::nothrow) inflate_state());
        if (!st_) {
          state_ = status::no_memory;
          s.result = state_;
          return s;
        }
        isal_inflate_init(st_.get());
      }
      // A member starts (the first, or another: cat a.gz b.gz).
      in_member_ = true;
      part_ = part::fixed;
      part_seen_ = 0;
      flags_ = 0;
      extra_len_ = 0;
      header_crc_ = 0;
      hcrc_ = 0;
    }
    const std::size_t room = out_size - s.produced;
    if (room == 0) break;
    int rc = 0;
    if (part_ != part::body) {
      // After a member, a byte that does not start another one is trailing
      // data at once, even a single byte (a decoder would wait for a second
      // one and then call a lone newline a cut-off member).
      std::size_t used = 0;
      rc = read_header(in + s.consumed, in_size - s.consumed, used);
      s.consumed += used;
      if (rc != 0) {
        fail(rc, s);
        return s;
      }
      if (part_ != part::body) break;  // the input ended inside the header
    }
    // One byte past the limit is asked for, to tell a stream that ends at
    // the limit from one that goes beyond it.
    const std::uint64_t allowed = max_output_ - total_out_;
    std::size_t give = room;
    if (allowed < give) give = static_cast<std::size_t>(allowed) + 1;
    give = std::min(give, max_uint);
    const std::size_t offer = std::min(in_size - s.consumed, max_uint);

    inflate_state& st = *st_;
    st.next_in =
        reinterpret_cast<std::uint8_t*>(const_cast<char*>(in + s.consumed));
    st.avail_in = static_cast<std::uint32_t>(offer);
    st.next_out = reinterpret_cast<std::uint8_t*>(out + s.produced);
    st.avail_out = static_cast<std::uint32_t>(give);
    rc = isal_inflate(&st);
    // At a member's end or an error ISA-L hands back the whole bytes left
    // in its bit buffer, which on an error may predate this call: nothing
    // of this call was taken then.
    const std::size_t taken = st.avail_in <= offer ? offer - st.avail_in : 0;
    std::size_t made = give - st.avail_out;
    s.consumed += taken;
    if (made > 0) {
      if (made > allowed) {
        made = static_cast<std::size_t>(allowed);
        state_ = status::output_limit;
      }
      s.produced += made;
      total_out_ += made;
      if (state_ != status::ok) {
        s.result = state_;
        return s;
      }
    }
    if (rc == ISAL_DECOMP_OK && st.block_state == ISAL_BLOCK_FINISH) {
      // The member's trailer is read and checked; ISA-L hands back the
      // input bytes past it.
      in_member_ = false;
      ++members_done_;
      continue;
    }
    if (rc == ISAL_DECOMP_OK) {
      // Input used up with room to spare: ISA-L holds no more output.
      if (s.consumed == in_size && st.avail_out != 0) break;
      if (taken == 0 && made == 0) break;  // never spin
      continue;
    }
    fail(rc, s);
    return s;
  }
  return s;
}

void gzip_inflater::fail(int rc, step& s) noexcept {
  if (members_done_ > 0 && part_ != part::body) {
    // What gzip -d calls "trailing garbage": after a whole member, bytes
    // that are not a member header. (A header that holds but deflate data
    // that does not is corrupt: where a decoder notices that, and whether
    // it gave bytes first, depends on how the input was split.)
    state_ = status::trailing_data;
    in_member_ = false;
  } else {
    state_ = status::corrupt;
    message_ = corrupt_words(rc);
  }
  s.result = state_;
}

}  // namespace sitemill::detail
