// find_final_block(): a DEFLATE block walker (RFC 1951 3.2). It decodes
// Huffman codes only to step over them; no output is produced. A table
// lookup steps over two codes where the second starts and ends within the
// table's bits: a literal and the code after it, or a length, its extra
// bits and the distance code after them with the distance's extra bits. So
// most matches take one lookup, and no branch tells a literal from a match
// (docs/performance.md has the measurements).
#include "write/deflate_splice.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace sitemill::detail {
namespace {

// The bits of a byte string from any bit position, lowest first, as DEFLATE
// packs them; past the end they read as zeros. A walk that steps past the
// end has failed (its stream is not complete), whatever it reads there.
class bit_stream {
 public:
  explicit bit_stream(std::string_view bytes)
      : data_(reinterpret_cast<const std::uint8_t*>(bytes.data())),
        size_(bytes.size()),
        fast_end_(bytes.size() >= 8 ? bytes.size() - 7 : 0),
        tail_at_(bytes.size() - std::min<std::size_t>(bytes.size(), 8)) {
    std::memcpy(tail_, data_ + tail_at_, size_ - tail_at_);
  }

  // window() where it needs no zero padding, the common case; false, and
  // nothing read, within 8 bytes of the end.
  bool window_fast(std::uint64_t pos, std::uint64_t& bits) const {
    const std::uint64_t byte = pos >> 3;
    if (byte >= fast_end_) return false;
    std::memcpy(&bits, data_ + byte, 8);  // little-endian hosts only
    bits >>= pos & 7;
    return true;
  }
  // At least 57 bits from bit `pos`: every load is of 8 whole bytes, so
  // only the last few need the zero-padded copy.
  std::uint64_t window(std::uint64_t pos) const {
    const std::uint64_t byte = pos >> 3;
    std::uint64_t word;
    if (byte < fast_end_) {
      std::memcpy(&word, data_ + byte, 8);  // little-endian hosts only
    } else if (byte <= size_) {
      std::memcpy(&word, tail_ + (byte - tail_at_), 8);
    } else {
      return 0;
    }
    return word >> (pos & 7);
  }
  std::uint64_t size_bits() const { return std::uint64_t{size_} * 8; }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t fast_end_;  // bytes before it have 7 more after them
  std::size_t tail_at_;   // where tail_ starts: the last 8 bytes or fewer
  std::uint8_t tail_[16] = {};
};

// Extra bits after length symbols 257..285 and distance symbols 0..29.
constexpr std::uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                           1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                           4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::uint8_t distance_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

enum class code_kind { plain, litlen, distance };

// Codes of up to table_bits bits are looked up in one table per code; a
// block's litlen table and its distance table (8 KiB each) sit side by side
// so that the next lookup's table is a bit of the entry. 11 bits: 12 take
// 6% fewer lookups on urlsets but cost more to build than they save, 10
// take 9% more (benchmarks/splice_bench.cpp).
constexpr unsigned table_bits = 11;
constexpr std::uint32_t table_size = 1u << table_bits;

// An entry: bits to step over (codes and extra bits), whether a distance
// code comes next, and three flags for the walk's rare cases; then, for
// building tables, the (first) symbol and its code's length.
constexpr std::uint32_t skip_mask = 0xff;  // 24 at most: bits 6 and 7 are 0
constexpr std::uint32_t then_distance = table_size;  // also the table's offset
constexpr std::uint32_t block_end = 1u << 13;        // ends with symbol 256
constexpr std::uint32_t long_code = 1u << 14;  // no code of table_bits or less
constexpr std::uint32_t no_symbol = 1u << 15;  // symbol 286, 287, 30 or 31
constexpr std::uint32_t rare = block_end | long_code | no_symbol;
constexpr unsigned symbol_shift = 16;
constexpr unsigned length_shift = 28;
static_assert(then_distance < block_end && skip_mask < then_distance);

constexpr std::uint32_t entry(unsigned skip, std::uint32_t flags,
                              unsigned symbol, unsigned code_length) {
  return skip | flags | (symbol << symbol_shift) |
         (code_length << length_shift);
}
constexpr unsigned entry_skip(std::uint32_t e) { return e & skip_mask; }
constexpr unsigned entry_symbol(std::uint32_t e) {
  return (e >> symbol_shift) & 0x1ff;
}
// The length of the code an entry starts with; 15 where no code fits, so
// that such an entry never follows another (see join_second()).
constexpr unsigned entry_code_length(std::uint32_t e) {
  return e >> length_shift;
}
constexpr std::uint32_t unknown_bits = entry(0, long_code, 0, 15);
constexpr std::uint32_t invalid = entry(0, no_symbol, 0, 15);

std::uint32_t entry_for(code_kind kind, unsigned symbol, unsigned length) {
  switch (kind) {
    case code_kind::plain:
      return entry(length, 0, symbol, length);
    case code_kind::litlen:
      if (symbol < 256) return entry(length, 0, symbol, length);
      if (symbol == 256) return entry(length, block_end, symbol, length);
      if (symbol <= 285) {
        return entry(length + length_extra[symbol - 257], then_distance, symbol,
                     length);
      }
      return invalid;
    case code_kind::distance:
      if (symbol <= 29)
        return entry(length + distance_extra[symbol], 0, symbol, length);
      return invalid;
  }
  return invalid;
}

unsigned reversed(unsigned code, unsigned length) {
  unsigned r = 0;
  for (unsigned i = 0; i < length; ++i, code >>= 1) r = (r << 1) | (code & 1);
  return r;
}

// A canonical Huffman code (RFC 1951 3.2.2) from its code lengths.
class canonical_code {
 public:
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
    kind_ = kind;
    shortest_ = 1;
    while (shortest_ < 15 && per_length_[shortest_] == 0) ++shortest_;
    return true;
  }

  // The length of the shortest code; 15 when there are none.
  unsigned shortest() const { return shortest_; }

  // Calls f(entry, first bits reversed, code length) for every code of up
  // to `bits` bits.
  template <class F>
  void for_each_short_code(unsigned bits, F f) const {
    unsigned code = 0, index = 0;
    for (unsigned len = 1; len <= bits; ++len) {
      for (unsigned k = 0; k < per_length_[len]; ++k, ++code, ++index)
        f(entry_for(kind_, sorted_[index], len), reversed(code, len), len);
      code <<= 1;
    }
  }

  // One entry per code in table[0, 2^bits), at every index whose low bits
  // are the code; unknown_bits where no code that short starts.
  void fill(std::uint32_t* table, unsigned bits) const {
    const std::uint32_t size = 1u << bits;
    std::fill(table, table + size, unknown_bits);
    for_each_short_code(
        bits, [&](std::uint32_t e, unsigned first, unsigned len) {
          for (std::uint32_t i = first; i < size; i += 1u << len) table[i] = e;
        });
  }

  // The code at the front of `bits`, bit by bit as zlib's puff.c does:
  // for codes longer than the table; `invalid` when no code starts there.
  std::uint32_t decode_slowly(std::uint64_t bits) const {
    int code = 0, first = 0, index = 0;
    for (unsigned len = 1; len < 16; ++len) {
      code |= static_cast<int>(bits & 1);
      bits >>= 1;
      const int count = static_cast<int>(per_length_[len]);
      if (code - first < count) {
        return entry_for(
            kind_, sorted_[static_cast<std::size_t>(index + code - first)],
            len);
      }
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    return invalid;
  }

 private:
  std::array<unsigned, 16> per_length_{};
  std::array<std::uint16_t, 320> sorted_{};
  code_kind kind_ = code_kind::plain;
  unsigned shortest_ = 15;
};

// A Huffman block's codes as the walk uses them.
struct block_tables {
  // The litlen table, each entry stepping over its code and the next one
  // when that fits; then the distance table, one code per entry.
  std::array<std::uint32_t, 2 * table_size> lookup;
  std::array<std::uint32_t, table_size> single_litlen;  // building only
  canonical_code litlen, distance;

  // False when either code is not a prefix code.
  bool build(const std::uint8_t* litlen_lengths, unsigned litlen_count,
             const std::uint8_t* distance_lengths, unsigned distance_count) {
    if (!litlen.build(litlen_lengths, litlen_count, code_kind::litlen) ||
        !distance.build(distance_lengths, distance_count,
                        code_kind::distance)) {
      return false;
    }
    std::uint32_t* const distances = lookup.data() + table_size;
    // A second code has table_bits less the first's length at most.
    litlen.fill(single_litlen.data(),
                table_bits - std::min(table_bits, litlen.shortest()));
    distance.fill(distances, table_bits);
    std::fill(lookup.data(), distances, unknown_bits);
    litlen.for_each_short_code(
        table_bits, [&](std::uint32_t e, unsigned first, unsigned len) {
          join_second(e, first, len,
                      (e & then_distance) ? distances : single_litlen.data());
        });
    return true;
  }

 private:
  // Writes the entries of a litlen code `e` (its first bits reversed,
  // `len` long): each steps over the code after it too, looked up in
  // `second`, where that code ends within the table's bits.
  void join_second(std::uint32_t e, unsigned first, unsigned len,
                   const std::uint32_t* second) {
    const unsigned used = entry_skip(e);  // the code and its extra bits
    if ((e & rare) != 0 || used >= table_bits) {
      for (std::uint32_t i = first; i < table_size; i += 1u << len)
        lookup[i] = e;
      return;
    }
    const unsigned room = table_bits - used;
    const std::uint32_t joined = e & ~then_distance;
    // Each value of the extra bits is an entry of its own, alike.
    const auto with_second = [&](std::uint32_t q) {
      const std::uint32_t next = second[q];
      return entry_code_length(next) <= room
                 ? joined + (next & (skip_mask | then_distance | block_end))
                 : e;
    };
    if (used == len) {  // no extra bits: a literal, most lengths' codes
      for (std::uint32_t q = 0; q < (1u << room); ++q)
        lookup[first | (q << len)] = with_second(q);
      return;
    }
    for (std::uint32_t q = 0; q < (1u << room); ++q) {
      const std::uint32_t both = with_second(q);
      for (std::uint32_t x = 0; x < (1u << (used - len)); ++x)
        lookup[first | (x << len) | (q << used)] = both;
    }
  }
};

// Steps from `pos` over a block's codes to one past its end-of-block code;
// false on a code no table has, a reserved symbol, or a step past the
// end. Two lookups per load: an entry steps over 11 + 13 bits at most
// (a distance code's extra bits follow it), and a load holds 57.
bool skip_symbols(const bit_stream& in, std::uint64_t& position,
                  const block_tables& tables) {
  const std::uint32_t* const t = tables.lookup.data();
  constexpr std::uint32_t mask = table_size - 1;
  std::uint64_t pos = position;  // a local: kept in a register
  std::uint32_t next_table = 0;  // or then_distance
  bool ended = false;
  for (;;) {
    std::uint64_t bits;
    if (!in.window_fast(pos, bits)) {
      if (pos > in.size_bits()) break;
      bits = in.window(pos);
    }
    std::uint32_t e = t[next_table | (bits & mask)];
    if ((e & rare) == 0) {
      const std::uint32_t e2 =
          t[(e & then_distance) | ((bits >> entry_skip(e)) & mask)];
      if ((e2 & rare) == 0) {
        pos += entry_skip(e) + entry_skip(e2);
        next_table = e2 & then_distance;
        continue;
      }
      pos += entry_skip(e);
      next_table = e & then_distance;
      e = e2;
    }
    if (e & long_code) {
      const canonical_code& code =
          next_table != 0 ? tables.distance : tables.litlen;
      e = code.decode_slowly(in.window(pos));
      if ((e & rare) == 0) {
        pos += entry_skip(e);
        next_table = e & then_distance;
        continue;
      }
    }
    if ((e & no_symbol) == 0) {  // block_end
      pos += entry_skip(e);
      ended = true;
    }
    break;
  }
  position = pos;
  return ended;
}

// The next n bits (n <= 32) from `pos`, stepped over.
std::uint32_t take(const bit_stream& in, std::uint64_t& pos, unsigned n) {
  const auto v = static_cast<std::uint32_t>(in.window(pos) &
                                            ((std::uint64_t{1} << n) - 1));
  pos += n;
  return v;
}

bool read_dynamic_tables(const bit_stream& in, std::uint64_t& pos,
                         block_tables& tables) {
  const unsigned hlit = take(in, pos, 5) + 257;
  const unsigned hdist = take(in, pos, 5) + 1;
  const unsigned hclen = take(in, pos, 4) + 4;
  static constexpr std::uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                             11, 4,  12, 3, 13, 2, 14, 1, 15};
  std::uint8_t clen[19] = {};
  for (unsigned i = 0; i < hclen; ++i)
    clen[order[i]] = static_cast<std::uint8_t>(take(in, pos, 3));
  canonical_code lengths_code;
  if (!lengths_code.build(clen, 19, code_kind::plain)) return false;
  std::uint32_t lengths_table[1u << 7];  // its codes are 7 bits at most
  lengths_code.fill(lengths_table, 7);
  std::uint8_t lengths[288 + 32] = {};
  for (unsigned i = 0; i < hlit + hdist;) {
    if (pos > in.size_bits()) return false;
    const std::uint32_t e = lengths_table[in.window(pos) & 127];
    if (e & long_code) return false;  // no code starts with these bits
    pos += entry_skip(e);
    const unsigned sym = entry_symbol(e);
    unsigned repeat = 1;
    std::uint8_t value = 0;
    if (sym < 16) {
      value = static_cast<std::uint8_t>(sym);
    } else if (sym == 16) {
      if (i == 0) return false;
      value = lengths[i - 1];
      repeat = 3 + take(in, pos, 2);
    } else if (sym == 17) {
      repeat = 3 + take(in, pos, 3);
    } else {
      repeat = 11 + take(in, pos, 7);
    }
    if (i + repeat > hlit + hdist) return false;
    while (repeat-- != 0) lengths[i++] = value;
  }
  if (lengths[256] == 0) return false;  // a block must be able to end
  return tables.build(lengths, hlit, lengths + hlit, hdist);
}

// RFC 1951 3.2.6's codes, built once.
const block_tables& fixed_tables() {
  static const block_tables tables = [] {
    std::uint8_t lengths[288 + 30];
    std::memset(lengths, 8, 144);
    std::memset(lengths + 144, 9, 112);
    std::memset(lengths + 256, 7, 24);
    std::memset(lengths + 280, 8, 8);
    std::memset(lengths + 288, 5, 30);
    block_tables t;
    t.build(lengths, 288, lengths + 288, 30);
    return t;
  }();
  return tables;
}

}  // namespace

std::optional<final_block> find_final_block(std::string_view raw) {
  const bit_stream in(raw);
  block_tables dynamic;
  std::uint64_t pos = 0;
  for (;;) {
    const std::uint64_t header = pos;
    const bool final = take(in, pos, 1) != 0;
    const unsigned type = take(in, pos, 2);
    if (type == 0) {
      pos = (pos + 7) & ~std::uint64_t{7};
      const std::uint32_t len = take(in, pos, 16);
      const std::uint32_t nlen = take(in, pos, 16);
      if ((len ^ 0xffffu) != nlen) return std::nullopt;
      pos += std::uint64_t{len} * 8;
    } else if (type == 1) {
      if (!skip_symbols(in, pos, fixed_tables())) return std::nullopt;
    } else if (type == 2) {
      if (!read_dynamic_tables(in, pos, dynamic) ||
          !skip_symbols(in, pos, dynamic)) {
        return std::nullopt;
      }
    } else {
      return std::nullopt;  // type 3 is reserved
    }
    if (pos > in.size_bits()) return std::nullopt;
    if (final) return final_block{header, pos};
  }
}

bool make_non_final(std::string& raw) {
  const std::optional<final_block> last = find_final_block(raw);
  if (!last) return false;
  raw.resize((last->end_bit + 7) / 8);
  raw[last->header_bit / 8] =
      static_cast<char>(static_cast<unsigned char>(raw[last->header_bit / 8]) &
                        ~(1u << (last->header_bit % 8)));
  // The empty stored block: BFINAL 0 and BTYPE 00 in the three bits after
  // the stream, zeros to the byte boundary, then LEN 0 and NLEN 0xffff.
  const unsigned used = last->end_bit % 8;
  if (used != 0) {
    raw.back() = static_cast<char>(static_cast<unsigned char>(raw.back()) &
                                   ((1u << used) - 1));
  }
  if (used == 0 || used > 5) raw.push_back('\0');
  raw.append("\x00\x00\xff\xff", 4);
  return true;
}

}  // namespace sitemill::detail
