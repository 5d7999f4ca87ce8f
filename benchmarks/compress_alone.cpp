// The compress-alone reference of benchmarks/compare_peer.sh: what gzipping
// a sitemap set costs with nothing else to do. It compresses given files the
// way `sitemill generate` compresses the files it writes by default, so that
// generate's wall time over this one's is sitemill's overhead (issue 31: at
// most 1.25x).
//
// usage: compress_alone [--level N] [--threads N] OUT_DIR FILE...
//
// What is the same as generate's gzip path (src/write/gzip.cpp): libdeflate
// at the level generate uses by default (6; --level to change it), each file
// cut into pieces of sitemill::gzip_chunk_bytes at the same offsets, every
// piece compressed on its own by a pool of worker threads (by default as many
// as generate starts: one per core), each output file written in order,
// fsynced and closed as generate's file_sink does before it publishes.
// What it leaves out, being sitemill's own work: making the XML, joining the
// pieces into one DEFLATE stream (each piece is written as a gzip member of
// its own, so OUT_DIR/NAME.gz is a valid multi-member gzip file that
// `gzip -t` accepts) and the renames that publish. Each worker reads its
// piece with pread(2) into a buffer of its own, from the page cache as a
// benchmark run leaves the files: its memory is its buffers and the
// compressed pieces not yet written, not the input.
//
// OUT_DIR is made when missing. Prints one line: files, bytes in, bytes out,
// wall seconds (from the first piece to the last close; the script times the
// whole process, as it times generate). Exit status 0, 1 on an I/O error,
// 2 on usage.
#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sitemill/write/sink.h"

namespace {

struct input_file {
  std::string path;
  int fd = -1;
  std::size_t size = 0;
};

// One piece of one file; `done` once `out` holds its gzip member.
struct job {
  std::size_t file = 0;
  std::size_t offset = 0;
  std::size_t size = 0;
  bool last = false;  // the file's last piece
  std::vector<unsigned char> out;
  bool done = false;
};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "compress_alone: %s\n", what.c_str());
  std::exit(1);
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: compress_alone [--level N] [--threads N] OUT_DIR "
               "FILE...\n");
  std::exit(2);
}

input_file open_file(const std::string& path) {
  input_file f;
  f.path = path;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0) die("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) die("cannot stat " + path);
  f.size = static_cast<std::size_t>(st.st_size);
  return f;
}

void read_piece(const input_file& f, std::size_t offset, std::size_t size,
                unsigned char* to) {
  while (size != 0) {
    const ssize_t n = ::pread(f.fd, to, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) die("cannot read " + f.path);
    to += n;
    offset += static_cast<std::size_t>(n);
    size -= static_cast<std::size_t>(n);
  }
}

void write_all(int fd, const unsigned char* p, std::size_t n,
               const std::string& path) {
  while (n != 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      die("cannot write " + path + ": " + std::strerror(errno));
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

int main(int argc, char** argv) {
  int level = 6;  // compression::normal, generate's default
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i += 2) {
    if (i + 1 >= argc) usage();
    const std::string flag = argv[i];
    const int value = std::atoi(argv[i + 1]);
    if (flag == "--level" && value >= 0 && value <= 12) {
      level = value;
    } else if (flag == "--threads" && value > 0) {
      threads = static_cast<unsigned>(value);
    } else {
      usage();
    }
  }
  if (argc - i < 2) usage();
  const std::string out_dir = argv[i++];
  if (::mkdir(out_dir.c_str(), 0755) != 0 && errno != EEXIST)
    die("cannot create " + out_dir + ": " + std::strerror(errno));
  std::vector<input_file> files;
  for (; i < argc; ++i) files.push_back(open_file(argv[i]));

  const auto started = std::chrono::steady_clock::now();
  constexpr std::size_t chunk = sitemill::gzip_chunk_bytes;
  std::deque<job> jobs;  // stable addresses as it grows
  for (std::size_t f = 0; f < files.size(); ++f) {
    // Cut as gzip_compress() cuts: a file of whole chunks ends with an
    // empty piece.
    for (std::size_t at = 0;; at += chunk) {
      const bool last = files[f].size - at < chunk;
      jobs.push_back(
          {f, at, last ? files[f].size - at : chunk, last, {}, false});
      if (last) break;
    }
  }

  // Workers take pieces in file order; the main thread writes each file's
  // pieces as they are done, so writing overlaps compressing as in generate.
  std::mutex mu;
  std::condition_variable piece_done;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    libdeflate_compressor* c = libdeflate_alloc_compressor(level);
    if (c == nullptr) die("cannot allocate a compressor");
    // Reused and never zero-filled, as generate's per-thread buffer.
    const std::size_t bound = libdeflate_gzip_compress_bound(c, chunk);
    std::unique_ptr<unsigned char[]> in(new unsigned char[chunk]);
    std::unique_ptr<unsigned char[]> buffer(new unsigned char[bound]);
    for (std::size_t k; (k = next++) < jobs.size();) {
      job& j = jobs[k];
      read_piece(files[j.file], j.offset, j.size, in.get());
      const std::size_t n =
          libdeflate_gzip_compress(c, in.get(), j.size, buffer.get(), bound);
      if (n == 0) die("libdeflate exceeded its bound");
      std::vector<unsigned char> out(buffer.get(), buffer.get() + n);
      std::lock_guard lock(mu);
      j.out = std::move(out);
      j.done = true;
      piece_done.notify_all();
    }
    libdeflate_free_compressor(c);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work);

  std::uint64_t bytes_in = 0, bytes_out = 0;
  int fd = -1;
  std::string path;
  for (job& j : jobs) {
    if (fd < 0) {
      path = out_dir + "/" + base_name(files[j.file].path) + ".gz";
      fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) die("cannot create " + path + ": " + std::strerror(errno));
    }
    std::vector<unsigned char> out;
    {
      std::unique_lock lock(mu);
      piece_done.wait(lock, [&] { return j.done; });
      out = std::move(j.out);
    }
    write_all(fd, out.data(), out.size(), path);
    bytes_in += j.size;
    bytes_out += out.size();
    if (j.last) {
      if (::fsync(fd) != 0) die("cannot fsync " + path);
      if (::close(fd) != 0) die("cannot close " + path);
      fd = -1;
    }
  }
  for (auto& t : pool) t.join();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
          .count();
  std::printf("files %zu bytes_in %llu bytes_out %llu wall_s %.3f\n",
              files.size(), static_cast<unsigned long long>(bytes_in),
              static_cast<unsigned long long>(bytes_out), wall);
  return 0;
}
