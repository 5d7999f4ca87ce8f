// sitemill: errors as values. C++20 has no std::expected, so this is the small
// subset sitemill needs: a value or an error message, checked by the caller.
#ifndef SITEMILL_RESULT_H
#define SITEMILL_RESULT_H

#include <string>
#include <utility>
#include <variant>

namespace sitemill {

/// What went wrong, in words a user can act on (names the file when there is
/// one).
///
/// The library speaks its own vocabulary: a message names an option, or a
/// function to call, by its name in the API between backquotes ("`max_urls`
/// must be from 1 to 50,000"), so that a front end can put its own name for
/// it there (the CLI writes its flag, "--max-urls").
struct error {
  std::string message;
  /// The option the error is about, as its options struct names it
  /// ("max_urls", "out_dir"); "" when it is not about one option.
  std::string field = {};
};

/// A value of type T, or an error. Accessing the wrong alternative is a bug
/// (it throws std::bad_variant_access), never a way to report bad input.
template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  result(error e) : v_(std::move(e)) {}      // NOLINT: implicit by design

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const error& err() const& { return std::get<1>(v_); }
  error&& err() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, error> v_;
};

/// Success, or an error: the result of an operation that yields nothing.
class [[nodiscard]] status {
 public:
  status() = default;
  status(error e)  // NOLINT: implicit by design
      : err_(std::move(e.message)), field_(std::move(e.field)), failed_(true) {}

  static status ok() { return {}; }
  bool has_value() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return !failed_; }
  /// The error message; empty on success.
  const std::string& message() const noexcept { return err_; }
  /// The option the error is about (error::field); "" when none.
  const std::string& field() const noexcept { return field_; }
  error err() const { return error{err_, field_}; }

 private:
  std::string err_;
  std::string field_;
  bool failed_ = false;
};

}  // namespace sitemill

#endif  // SITEMILL_RESULT_H
