// A minimal std::expected stand-in: Clang 14 with libstdc++ 12 has no
// <expected>, and errors-as-values is how every fallible function reports.
#pragma once

#include <utility>
#include <variant>

namespace aj {

template <typename E>
struct Unexpected {
  E error;
};

template <typename E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
  return {std::forward<E>(e)};
}

template <typename T, typename E>
class Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT
  template <typename G>
  Expected(Unexpected<G> u) : v_(std::in_place_index<1>, std::move(u.error)) {}  // NOLINT

  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  E& error() & { return std::get<1>(v_); }
  const E& error() const& { return std::get<1>(v_); }
  E&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, E> v_;
};

template <typename E>
class Expected<void, E> {
 public:
  Expected() = default;
  template <typename G>
  Expected(Unexpected<G> u) : err_(std::move(u.error)), ok_(false) {}  // NOLINT

  bool has_value() const { return ok_; }
  explicit operator bool() const { return ok_; }
  void value() const {}
  E& error() & { return err_; }
  const E& error() const& { return err_; }
  E&& error() && { return std::move(err_); }

 private:
  E err_{};
  bool ok_ = true;
};

}  // namespace aj
