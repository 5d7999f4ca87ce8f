// Readers that must not wait for ever (issue 14, defect 1): a list read from
// a FIFO or an endless device ends once reader_options::stop is set, and a
// FIFO whose writer comes late is still read whole (open(2) no longer waits
// for the writer, so reading must wait for it instead).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "sitemill/source/record_reader.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using namespace std::chrono_literals;

// Reads `reader` to its end on another thread; the future holds the records
// read and the reader's error.
std::future<std::pair<int, std::string>> read_all_async(record_reader& reader) {
  return std::async(std::launch::async, [&reader] {
    input_record r;
    int n = 0;
    while (reader.next(r)) ++n;
    return std::pair{n, reader.error()};
  });
}

// Ends a read that a broken stop left blocked, so the test fails instead of
// hanging: a writer that comes and goes is an end of file.
void unblock(const std::string& fifo) {
  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (fd >= 0) ::close(fd);
}

// Makes the FIFO `fifo` in `dir` and opens a txt reader of it with `stop`
// (nullptr: none). Opening must not wait for a writer.
std::unique_ptr<record_reader> fifo_reader(const temp_dir& dir,
                                           const std::atomic<bool>* stop,
                                           std::string& fifo) {
  fifo = dir / "f.txt";
  EXPECT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  reader_options options;
  options.stop = stop;
  auto reader = record_reader::open(fifo, options);
  EXPECT_TRUE(reader) << reader.err().message;
  return reader ? std::move(*reader) : nullptr;
}

TEST(InputStop, AFifoWithoutAWriterEndsOnStop) {
  temp_dir dir;
  std::string fifo;
  std::atomic<bool> stop{false};
  auto reader = fifo_reader(dir, &stop, fifo);
  ASSERT_TRUE(reader);
  auto done = read_all_async(*reader);
  EXPECT_EQ(done.wait_for(300ms), std::future_status::timeout)
      << "a FIFO nobody writes to is no end of file";
  stop = true;
  if (done.wait_for(10s) != std::future_status::ready) {
    unblock(fifo);
    FAIL() << "the reader did not see the stop";
  }
  const auto [records, why] = done.get();
  EXPECT_EQ(records, 0);
  EXPECT_NE(why.find("cancel"), std::string::npos) << why;
}

TEST(InputStop, RecordsBeforeTheStopAreRead) {
  temp_dir dir;
  std::string fifo;
  std::atomic<bool> stop{false};
  auto reader = fifo_reader(dir, &stop, fifo);
  ASSERT_TRUE(reader);
  const int writer = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, "https://a.example/1\nhttps://a.example/2\n", 40),
            40);
  input_record r;
  ASSERT_TRUE(reader->next(r));
  EXPECT_EQ(r.loc, "https://a.example/1");
  ASSERT_TRUE(reader->next(r));
  EXPECT_EQ(r.loc, "https://a.example/2");
  // The writer stays, silent: only the stop ends the read.
  auto done = read_all_async(*reader);
  stop = true;
  const bool ended = done.wait_for(10s) == std::future_status::ready;
  ::close(writer);
  ASSERT_TRUE(ended);
  EXPECT_EQ(done.get().first, 0);
}

TEST(InputStop, AnEndlessDeviceEndsOnStopInEveryFormat) {
  for (const input_format format : {input_format::txt, input_format::tsv,
                                    input_format::csv, input_format::jsonl}) {
    std::atomic<bool> stop{false};
    reader_options options;
    options.format = format;
    options.stop = &stop;
    options.columns = {column::loc};  // tsv/csv: no header to wait for
    auto reader = record_reader::open("/dev/zero", options);
    ASSERT_TRUE(reader) << reader.err().message;
    auto done = read_all_async(**reader);
    std::this_thread::sleep_for(50ms);
    stop = true;
    ASSERT_EQ(done.wait_for(10s), std::future_status::ready)
        << "format " << static_cast<int>(format);
    EXPECT_NE(done.get().second.find("cancel"), std::string::npos);
  }
}

TEST(InputStop, AFifoWhoseWriterComesLateIsReadWhole) {
  temp_dir dir;
  std::string fifo;
  auto reader = fifo_reader(dir, nullptr, fifo);  // no stop flag at all
  ASSERT_TRUE(reader);
  auto done = read_all_async(*reader);
  std::thread writer([&fifo] {
    std::this_thread::sleep_for(100ms);
    const int fd = ::open(fifo.c_str(), O_WRONLY);
    if (fd < 0) return;
    (void)!::write(fd, "https://a.example/1\n", 20);
    std::this_thread::sleep_for(50ms);
    (void)!::write(fd, "https://a.example/2\n", 20);
    ::close(fd);
  });
  const bool ended = done.wait_for(10s) == std::future_status::ready;
  if (!ended) unblock(fifo);
  writer.join();
  ASSERT_TRUE(ended);
  const auto [records, why] = done.get();
  EXPECT_EQ(records, 2) << "read before the writer came: an early end of file";
  EXPECT_EQ(why, "");
}

}  // namespace
}  // namespace sitemill::testing
