// Referee's list of move names for the C++ Boards (staged as referee/actions.h; every referee/<game>.h includes it).
// A Board's getLegalActions (and Reversi's flipped discs) fill one of these instead of a std::vector<std::string>:
// the room for every name a position can have lives inside the list, and each name is short enough for
// std::string's own buffer, so listing moves allocates nothing on the heap. It reads like the vector it replaces
// (size, [], at, front, back, iterators over std::string, push_back, erase, …) and converts to
// std::vector<std::string> on its own, so `std::vector<std::string> moves = board.getLegalActions(color);` still
// compiles; `auto moves = …` keeps the list and its speed.
#ifndef REFEREE_ACTIONS_H
#define REFEREE_ACTIONS_H

#include <cstddef>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace referee {

/**
 * The game the grader is playing ("gomoku-exact5"), set by the C++ host before the first move; empty in a student's
 * own program. A Board that plays several variants (Gomoku's freestyle and exactly-five) takes its default from it.
 */
inline std::string& playedGame() {
  static std::string game;
  return game;
}

template <std::size_t CAP>
class Names {
 public:
  using value_type = std::string;
  using size_type = std::size_t;
  using difference_type = std::ptrdiff_t;
  using reference = std::string&;
  using const_reference = const std::string&;
  using pointer = std::string*;
  using const_pointer = const std::string*;
  using iterator = std::string*;
  using const_iterator = const std::string*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  Names() noexcept {}
  Names(const Names& other) {
    for (const std::string& name : other) push_back(name);
  }
  Names(Names&& other) noexcept {
    for (std::string& name : other) new (slot(n_++)) std::string(std::move(name));
  }
  Names& operator=(const Names& other) {
    if (this != &other) {
      clear();
      for (const std::string& name : other) push_back(name);
    }
    return *this;
  }
  Names& operator=(Names&& other) noexcept {
    if (this != &other) {
      clear();
      for (std::string& name : other) new (slot(n_++)) std::string(std::move(name));
    }
    return *this;
  }
  ~Names() { clear(); }

  /** A copy as the vector older code declares. */
  operator std::vector<std::string>() const { return std::vector<std::string>(begin(), end()); }

  size_type size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  static constexpr size_type capacity() noexcept { return CAP; }
  static constexpr size_type max_size() noexcept { return CAP; }

  std::string& operator[](size_type i) { return *slot(i); }
  const std::string& operator[](size_type i) const { return *slot(i); }
  std::string& at(size_type i) { return i < n_ ? *slot(i) : outOfRange(); }
  const std::string& at(size_type i) const { return i < n_ ? *slot(i) : outOfRange(); }
  std::string& front() { return *slot(0); }
  const std::string& front() const { return *slot(0); }
  std::string& back() { return *slot(n_ - 1); }
  const std::string& back() const { return *slot(n_ - 1); }
  std::string* data() noexcept { return slot(0); }
  const std::string* data() const noexcept { return slot(0); }

  iterator begin() noexcept { return slot(0); }
  iterator end() noexcept { return slot(n_); }
  const_iterator begin() const noexcept { return slot(0); }
  const_iterator end() const noexcept { return slot(n_); }
  const_iterator cbegin() const noexcept { return begin(); }
  const_iterator cend() const noexcept { return end(); }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  void push_back(const std::string& name) { emplace_back(name); }
  void push_back(std::string&& name) { emplace_back(std::move(name)); }
  template <class... Args>
  std::string& emplace_back(Args&&... args) {
    std::string* made = new (room()) std::string(std::forward<Args>(args)...);
    n_++;
    return *made;
  }
  void pop_back() { slot(--n_)->~basic_string(); }
  void clear() noexcept {
    while (n_ > 0) slot(--n_)->~basic_string();
  }
  iterator erase(const_iterator first, const_iterator last) {
    iterator to = begin() + (first - begin());
    iterator from = begin() + (last - begin());
    iterator out = to;
    while (from != end()) *to++ = std::move(*from++);
    while (end() != to) pop_back();
    return out;
  }
  iterator erase(const_iterator at) { return erase(at, at + 1); }

  /** The Board's own fill: the name in `text` (short: it stays in std::string's own buffer), one character at a time, which compiles inline. */
  void add(const char* text) {
    std::string* name = new (room()) std::string();
    while (*text) name->push_back(*text++);
    n_++;
  }
  /** The same for a name of two characters (two stores into the string's own buffer, inline). */
  void add2(const char* text) {
    std::string* name = new (room()) std::string();
    name->push_back(text[0]);
    name->push_back(text[1]);
    n_++;
  }

 private:
  alignas(std::string) unsigned char room_[CAP * sizeof(std::string)];
  size_type n_ = 0;

  std::string* slot(size_type i) noexcept { return std::launder(reinterpret_cast<std::string*>(room_)) + i; }
  const std::string* slot(size_type i) const noexcept { return std::launder(reinterpret_cast<const std::string*>(room_)) + i; }
  std::string* room() {
    if (n_ >= CAP) throw std::length_error("a Board's move list is full");
    return slot(n_);
  }
  [[noreturn]] static std::string& outOfRange() { throw std::out_of_range("move list index out of range"); }
};

template <std::size_t A, std::size_t B>
bool operator==(const Names<A>& a, const Names<B>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return false;
  return true;
}
template <std::size_t A>
bool operator==(const Names<A>& a, const std::vector<std::string>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return false;
  return true;
}
template <std::size_t A>
bool operator==(const std::vector<std::string>& b, const Names<A>& a) { return a == b; }
template <std::size_t A, class T>
bool operator!=(const Names<A>& a, const T& b) { return !(a == b); }

}  // namespace referee

#endif
