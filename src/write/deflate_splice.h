// Joining independently compressed raw DEFLATE pieces into one stream.
//
// libdeflate compresses whole buffers only, and every buffer it compresses
// ends with a final block (BFINAL set). To stream a file through it, gzip_sink
// compresses fixed chunks (gzip_chunk_bytes) one by one and joins them: each
// piece but the last has its final block turned into an ordinary one and is
// padded to a byte with an empty stored block (what zlib's Z_SYNC_FLUSH
// writes), so the next piece can start on the next byte. Nothing in
// libdeflate's API says where its last block begins, so find_final_block()
// walks the block structure (headers, Huffman tables and symbols, never the
// output) to find it. zlib could stream at level 6 directly, but at 0.66x
// libdeflate's speed on urlsets (deflate_levels_bench: 72.7 against 109.1
// MB/s).
#ifndef SITEMILL_WRITE_DEFLATE_SPLICE_H
#define SITEMILL_WRITE_DEFLATE_SPLICE_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sitemill::detail {

/// Where the last block of a raw DEFLATE stream (RFC 1951) starts and
/// where the stream ends, in bits from the first byte's lowest bit.
struct final_block {
  std::size_t header_bit = 0;  ///< the BFINAL bit of the final block
  std::size_t end_bit = 0;     ///< one past the final block's last bit
};

/// Walks `raw` block by block; std::nullopt when it is not a complete raw
/// DEFLATE stream ending in a block with BFINAL set (a truncated stream, a
/// reserved block type, an invalid code).
std::optional<final_block> find_final_block(std::string_view raw);

/// Turns the complete raw stream in `raw` into a non-final piece: clears the
/// final block's BFINAL bit and appends an empty stored block, so that the
/// piece ends on a byte boundary and another raw stream may follow it.
/// False (and `raw` unchanged) when find_final_block() fails.
bool make_non_final(std::string& raw);

}  // namespace sitemill::detail

#endif  // SITEMILL_WRITE_DEFLATE_SPLICE_H
