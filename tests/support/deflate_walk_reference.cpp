// The reference walker: src/write/deflate_splice.cpp's find_final_block()
// before its multi-code tables, unchanged but for its namespace.
#include "support/deflate_walk_reference.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace sitemill::detail::reference {
namespace {

// Reads bits lowest first, as DEFLATE packs them, from a 64-bit buffer
// that holds at least 56 unread bits after refill(). Past the end it loads
// zero bytes and counts them, which the walker then reports.
class bit_reader {
 public:
  explicit bit_reader(std::string_view bytes)
      : begin_(reinterpret_cast<const std::uint8_t*>(bytes.data())),
        next_(begin_),
        end_(begin_ + bytes.size()) {}

  // At least 56 bits buffered; false once 8 zero bytes were loaded past the
  // end, when at least one of them is consumed: the stream overran.
  bool refill() {
    if (end_ - next_ >= 8) {
      std::uint64_t word;
      std::memcpy(&word, next_, 8);  // little-endian hosts only
      // Bytes beyond the whole ones that fit land where the next refill
      // puts the same bytes again: or-ing them twice changes nothing.
      buffer_ |= word << bits_;
      // The whole bytes that fit, (63 - bits_) / 8, leave bits_ % 8 + 56.
      next_ += 7 - (bits_ >> 3);
      bits_ |= 56;
      return true;
    }
    return refill_slowly();
  }
  std::uint64_t bits() const { return buffer_; }
  // n <= bits buffered.
  void consume(unsigned n) {
    buffer_ >>= n;
    bits_ -= n;
  }
  // The next n bits (n <= 32), consumed.
  std::uint32_t take(unsigned n) {
    if (bits_ < n) refill();
    const auto v =
        static_cast<std::uint32_t>(buffer_ & ((std::uint64_t{1} << n) - 1));
    consume(n);
    return v;
  }
  void align() { consume(bits_ & 7); }
  // Skips n bytes from a byte boundary (after align()); false past the end.
  bool skip_bytes(std::size_t n) {
    if (n * 8 <= bits_) {
      // consume() shifts by less than 64 only.
      if (n != 0) consume(static_cast<unsigned>(n * 8));
      return true;
    }
    const std::size_t at = loaded() - bits_ / 8;
    buffer_ = 0;
    bits_ = 0;
    if (at + n > static_cast<std::size_t>(end_ - begin_)) return false;
    next_ = begin_ + at + n;
    zeros_ = 0;
    return true;
  }
  std::size_t position() const { return loaded() * 8 - bits_; }
  bool overran() const {
    return position() > static_cast<std::size_t>(end_ - begin_) * 8;
  }

 private:
  std::size_t loaded() const {
    return static_cast<std::size_t>(next_ - begin_) + zeros_;
  }
  bool refill_slowly() {
    while (bits_ < 56) {  // ends at 56..63 bits: every shift stays below 64
      std::uint64_t byte = 0;
      if (next_ != end_) {
        byte = *next_++;
      } else {
        ++zeros_;
      }
      buffer_ |= byte << bits_;
      bits_ += 8;
    }
    return zeros_ < 8;
  }

  const std::uint8_t* begin_;
  const std::uint8_t* next_;
  const std::uint8_t* end_;
  std::uint64_t buffer_ = 0;
  unsigned bits_ = 0;      // valid bits in buffer_, lowest first
  std::size_t zeros_ = 0;  // zero bytes loaded past the end
};

// Extra bits after length symbols 257..285 and distance symbols 0..29.
constexpr std::uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                           1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                           4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::uint8_t distance_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

enum class code_kind { plain, litlen, distance };

// What a decoded symbol asks of the walker next.
enum symbol_kind : std::uint32_t {
  go_on = 0,      // a literal, a distance, a code length: next symbol
  then_distance,  // a length: a distance follows
  block_end,      // symbol 256
  long_code,      // longer than the table: decode bit by bit
  no_symbol,      // a reserved symbol, or bits no code starts with
};

// Extra bits that follow `symbol` of a code of `kind`; the walker skips
// them together with the code, since it never needs their value.
unsigned extra_bits(code_kind kind, unsigned symbol) {
  if (kind == code_kind::litlen && symbol >= 257 && symbol <= 285)
    return length_extra[symbol - 257];
  if (kind == code_kind::distance && symbol <= 29)
    return distance_extra[symbol];
  return 0;
}

symbol_kind kind_of(code_kind kind, unsigned symbol) {
  if (kind == code_kind::litlen) {
    if (symbol < 256) return go_on;
    if (symbol == 256) return block_end;
    return symbol <= 285 ? then_distance : no_symbol;
  }
  if (kind == code_kind::distance) return symbol <= 29 ? go_on : no_symbol;
  return go_on;
}

// One table entry: bits to consume (code and extra bits), the symbol's kind
// and the symbol.
constexpr std::uint32_t entry(unsigned bits, symbol_kind kind,
                              unsigned symbol) {
  return bits | (static_cast<std::uint32_t>(kind) << 8) | (symbol << 16);
}
constexpr unsigned entry_bits(std::uint32_t e) { return e & 0xff; }
constexpr symbol_kind entry_kind(std::uint32_t e) {
  return static_cast<symbol_kind>((e >> 8) & 0xff);
}
constexpr unsigned entry_symbol(std::uint32_t e) { return e >> 16; }

// A canonical Huffman code. Codes of up to fast_bits bits are looked up in
// one small table (4 KiB: it stays in L1, where a table for 15-bit codes
// would not), each entry giving the symbol, its kind and how many bits to
// skip, its extra bits included; the rare longer codes are decoded bit by
// bit, as zlib's puff.c does.
class huffman_table {
 public:
  static constexpr unsigned fast_bits = 10;

  // False when the lengths over-subscribe the code (not a prefix code).
  bool build(const std::uint8_t* lengths, unsigned count, code_kind kind) {
    per_length_.fill(0);
    for (unsigned s = 0; s < count; ++s) ++per_length_[lengths[s]];
    per_length_[0] = 0;
    int left = 1;
    for (unsigned len = 1; len < 16; ++len) {
      left = (left << 1) - static_cast<int>(per_length_[len]);
      if (left < 0) return false;
    }
    // Symbols ordered by code length, then value: the canonical order.
    std::array<unsigned, 16> offset{};
    for (unsigned len = 1; len < 15; ++len)
      offset[len + 1] = offset[len] + per_length_[len];
    for (unsigned s = 0; s < count; ++s) {
      if (lengths[s] != 0)
        sorted_[offset[lengths[s]]++] = static_cast<std::uint16_t>(s);
    }
    // Bits that no short code starts with: a longer code, or none.
    fast_.fill(entry(0, long_code, 0));
    unsigned code = 0, index = 0;
    for (unsigned len = 1; len <= fast_bits; ++len) {
      for (unsigned k = 0; k < per_length_[len]; ++k, ++code, ++index) {
        const unsigned sym = sorted_[index];
        unsigned reversed = 0;
        for (unsigned i = 0, c = code; i < len; ++i, c >>= 1)
          reversed = (reversed << 1) | (c & 1);
        const std::uint32_t e =
            entry(len + extra_bits(kind, sym), kind_of(kind, sym), sym);
        for (unsigned i = reversed; i < fast_.size(); i += 1u << len)
          fast_[i] = e;
      }
      code <<= 1;
    }
    kind_ = kind;
    return true;
  }

  // The entry of the code at the front of `bits` (at least 15 + 13 bits
  // buffered); its long_code entries are resolved by decode_slowly().
  std::uint32_t lookup(std::uint64_t bits) const {
    return fast_[bits & (fast_.size() - 1)];
  }

  // A code longer than fast_bits (or none): the entry decode_slowly found,
  // no_symbol when no code starts with these bits.
  std::uint32_t decode_slowly(std::uint64_t bits) const {
    int code = 0, first = 0, index = 0;
    for (unsigned len = 1; len < 16; ++len) {
      code |= static_cast<int>(bits & 1);
      bits >>= 1;
      const int count = static_cast<int>(per_length_[len]);
      if (code - first < count) {
        const unsigned sym =
            sorted_[static_cast<std::size_t>(index + code - first)];
        return entry(len + extra_bits(kind_, sym), kind_of(kind_, sym), sym);
      }
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return entry(0, no_symbol, 0);
  }

  // The next symbol's entry, consumed with its extra bits; no_symbol (and
  // nothing consumed) for bits no code starts with.
  std::uint32_t decode(bit_reader& in) const {
    std::uint32_t e = lookup(in.bits());
    if (entry_kind(e) == long_code) e = decode_slowly(in.bits());
    in.consume(entry_bits(e));
    return e;
  }

 private:
  std::array<std::uint32_t, std::size_t{1} << fast_bits> fast_{};
  std::array<unsigned, 16> per_length_{};
  std::array<std::uint16_t, 320> sorted_{};
  code_kind kind_ = code_kind::plain;
};

// Steps over a block's symbols up to and including its end. One refill per
// step: 56 bits hold the longest length and distance codes with their
// extra bits (15 + 5 + 15 + 13), and after a literal (15 bits at most) the
// 41 left hold a second literal, the common case taken without a refill.
[[gnu::always_inline]] inline bool skip_to_block_end(
    bit_reader& in, const huffman_table& litlen, const huffman_table& dist) {
  for (;;) {
    if (!in.refill()) return false;
    std::uint32_t e = litlen.lookup(in.bits());
    if (entry_kind(e) == go_on) {
      in.consume(entry_bits(e));
      e = litlen.lookup(in.bits());
      if (entry_kind(e) == go_on) in.consume(entry_bits(e));
      continue;  // anything else is decoded after the refill
    }
    if (entry_kind(e) == long_code) e = litlen.decode_slowly(in.bits());
    in.consume(entry_bits(e));
    switch (entry_kind(e)) {
      case go_on:
        continue;
      case then_distance: {
        std::uint32_t d = dist.lookup(in.bits());
        if (entry_kind(d) == long_code) d = dist.decode_slowly(in.bits());
        if (entry_kind(d) != go_on) return false;
        in.consume(entry_bits(d));
        continue;
      }
      case block_end:
        return true;
      default:
        return false;
    }
  }
}

bool skip_symbols(bit_reader& reader, const huffman_table& litlen,
                  const huffman_table& dist) {
  // A local copy stays in registers; through the reference every step
  // would be stored, since a table load might alias it.
  bit_reader in = reader;
  const bool ended = skip_to_block_end(in, litlen, dist);
  reader = in;
  return ended;
}

bool read_dynamic_tables(bit_reader& in, huffman_table& litlen,
                         huffman_table& dist) {
  const unsigned hlit = in.take(5) + 257;
  const unsigned hdist = in.take(5) + 1;
  const unsigned hclen = in.take(4) + 4;
  static constexpr std::uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                             11, 4,  12, 3, 13, 2, 14, 1, 15};
  std::uint8_t clen[19] = {};
  for (unsigned i = 0; i < hclen; ++i)
    clen[order[i]] = static_cast<std::uint8_t>(in.take(3));
  huffman_table lengths_code;
  if (!lengths_code.build(clen, 19, code_kind::plain)) return false;
  std::uint8_t lengths[288 + 32] = {};
  for (unsigned i = 0; i < hlit + hdist;) {
    if (!in.refill()) return false;
    const std::uint32_t e = lengths_code.decode(in);
    if (entry_kind(e) != go_on) return false;
    const unsigned sym = entry_symbol(e);
    unsigned repeat = 1;
    std::uint8_t value = 0;
    if (sym < 16) {
      value = static_cast<std::uint8_t>(sym);
    } else if (sym == 16) {
      if (i == 0) return false;
      value = lengths[i - 1];
      repeat = 3 + in.take(2);
    } else if (sym == 17) {
      repeat = 3 + in.take(3);
    } else {
      repeat = 11 + in.take(7);
    }
    if (i + repeat > hlit + hdist) return false;
    while (repeat-- != 0) lengths[i++] = value;
  }
  if (lengths[256] == 0) return false;  // a block must be able to end
  return litlen.build(lengths, hlit, code_kind::litlen) &&
         dist.build(lengths + hlit, hdist, code_kind::distance);
}

void fixed_tables(huffman_table& litlen, huffman_table& dist) {
  std::uint8_t lengths[288];
  std::memset(lengths, 8, 144);
  std::memset(lengths + 144, 9, 112);
  std::memset(lengths + 256, 7, 24);
  std::memset(lengths + 280, 8, 8);
  litlen.build(lengths, 288, code_kind::litlen);
  std::uint8_t d[30];
  std::memset(d, 5, 30);
  dist.build(d, 30, code_kind::distance);
}

}  // namespace

std::optional<final_block> find_final_block(std::string_view raw) {
  bit_reader in(raw);
  huffman_table litlen, dist;
  for (;;) {
    const std::size_t header = in.position();
    const bool final = in.take(1) != 0;
    const unsigned type = in.take(2);
    if (type == 0) {
      in.align();
      const std::uint32_t len = in.take(16);
      const std::uint32_t nlen = in.take(16);
      if ((len ^ 0xffffu) != nlen || in.overran() || !in.skip_bytes(len))
        return std::nullopt;
    } else if (type == 1) {
      fixed_tables(litlen, dist);
      if (!skip_symbols(in, litlen, dist)) return std::nullopt;
    } else if (type == 2) {
      if (!read_dynamic_tables(in, litlen, dist) ||
          !skip_symbols(in, litlen, dist)) {
        return std::nullopt;
      }
    } else {
      return std::nullopt;  // type 3 is reserved
    }
    if (in.overran()) return std::nullopt;
    if (final) return final_block{header, in.position()};
  }
}

}  // namespace sitemill::detail::reference
