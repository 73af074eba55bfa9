// The C++ player host: the program the sandbox runs for a C++ submission or a compiled test AI (.so).
//
// It speaks the harness's JSON-lines protocol (requests on fd 3, answers on fd 4, one JSON object per line), so
// the student's printf/cout output on fds 1 and 2 is captured output, never protocol. It loads the player with
// dlopen only when asked ('load'), after it has installed its own seccomp filter (no fork, process clone or exec),
// so not one instruction of student code (static constructors included) runs before the filter.
//
// Two interfaces, found by the symbols the library exports:
//   - the Tsinghua Connect Four SDK: extern "C" Point* getPoint(M, N, top, _board, lastX, lastY, noX, noY) and
//     clearPoint(Point*). The host turns the referee's state into the SDK's view: rows from the top, 1 for the
//     opponent's discs and 2 for the player's own, the no-go cell reading 0, top[y] one row below the landing
//     cell; every argument is a fresh copy.
//   - Referee's C++ AIPlayer (student-template/cpp): the compile step adds referee_player_* functions that build
//     AIPlayer(color) and call getMove(board) on a Board built from the state text by the game's header.
//
// The host never judges a move: it reports what the player returned and the referee rules on it. It keeps no
// clock either: the parent measures wall time and CPU and kills at the deadline.
//
// Reproducible randomness (config.seedPlayerRandom): one process plays a series, so the C library's rand state
// and whatever the player seeds from the clock would depend on which games this process happened to play before
// and when. At each game's start the host reseeds rand/random/drand48 from the game's seed, and it defines time(),
// clock() and std::random_device's draw itself (the executable's exported symbols win over libc's and
// libstdc++'s for the dlopened player): a request's first readings are a value fixed by the game's seed and the
// request's number, so srand(time(0)) and mt19937(clock()) seed the same way in every process; after the first
// 20 ms of CPU the readings advance with the real clock again, so budgets measured with them keep working.
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <exception>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <map>
#include <new>
#include <string>
#include <sys/prctl.h>
#include <sys/random.h>
#include <ctime>
#include <unistd.h>
#include <vector>

// ---- reproducible randomness and clocks: the player's time(), clock() and std::random_device ----------------
namespace fixedclock {

bool active = false;       // the parent sent a seed (config.seedPlayerRandom); otherwise every reading is real
uint64_t seed = 0;         // this game's and side's seed
uint64_t draws = 0;        // std::random_device draws this game
int64_t request = 0;       // 0 while the AIPlayer is built, then one per move request
int64_t wallStart = 0;     // CLOCK_MONOTONIC when the request arrived (ns)
int64_t cpuStart = 0;      // the process's CPU time then (ns)
bool running = false;      // past the gate: readings follow the real clock
const int64_t GATE_NS = 20'000'000;            // CPU a request may use before its clock starts to move
const int64_t STEP_NS = 1000'000'000'000LL;    // each request's readings start this far after the last's
const int64_t LONGEST_NS = STEP_NS - 1'000'000'000LL;

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

int64_t now(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000LL + t.tv_nsec;
}

/** A new request (a game's start or a move): readings start again from the request's fixed value. */
void beginRequest(int64_t number) {
  request = number;
  running = false;
  wallStart = now(CLOCK_MONOTONIC);
  cpuStart = now(CLOCK_PROCESS_CPUTIME_ID);
}

/** Time since the request began on the given clock, 0 until the request has used GATE_NS of CPU. */
int64_t elapsed(bool cpu) {
  int64_t cpuNow = now(CLOCK_PROCESS_CPUTIME_ID);
  if (!running && cpuNow - cpuStart < GATE_NS) return 0;
  running = true;
  int64_t spent = cpu ? cpuNow - cpuStart : now(CLOCK_MONOTONIC) - wallStart;
  return spent < LONGEST_NS ? spent : LONGEST_NS;  // never past the next request's start: the clock stays monotonic
}

void startGame(uint64_t gameSeed) {
  active = true;
  seed = gameSeed;
  draws = 0;
  unsigned int first = static_cast<unsigned int>(mix(seed ^ 0x5eed));
  std::srand(first);
  srandom(first);
  srand48(static_cast<long>(first));
  beginRequest(0);
}

}  // namespace fixedclock

// The definitions the player's library binds to (exported from the executable: see cpp-runtime.ts).
extern "C" time_t time(time_t* out) {
  time_t value;
  if (!fixedclock::active) {
    value = static_cast<time_t>(fixedclock::now(CLOCK_REALTIME) / 1'000'000'000LL);
  } else {
    // A plausible date, different per game and side: 2020-09 plus up to ~3 years.
    int64_t base = 1'600'000'000LL + static_cast<int64_t>(fixedclock::mix(fixedclock::seed ^ 0x7173) % 100'000'000ULL);
    value = static_cast<time_t>(base + (fixedclock::request * fixedclock::STEP_NS + fixedclock::elapsed(false)) / 1'000'000'000LL);
  }
  if (out) *out = value;
  return value;
}

extern "C" clock_t clock() {
  if (!fixedclock::active) return static_cast<clock_t>(fixedclock::now(CLOCK_PROCESS_CPUTIME_ID) / 1000);
  // CLOCKS_PER_SEC is 1e6: a few milliseconds of start-up, then the request's share.
  int64_t base = 2000 + static_cast<int64_t>(fixedclock::mix(fixedclock::seed ^ 0xc10c) % 8000ULL);
  return static_cast<clock_t>(base + (fixedclock::request * fixedclock::STEP_NS + fixedclock::elapsed(true)) / 1000);
}

// std::random_device::operator() calls the out-of-line _M_getval (libstdc++): the same name here, with the
// member function's ABI (the device is the only argument), draws from the game's seed instead of the kernel.
unsigned int refereeRandomDevice(void* device) __asm__("_ZNSt13random_device9_M_getvalEv");
unsigned int refereeRandomDevice(void* device) {
  (void)device;
  if (!fixedclock::active) {
    unsigned int value = 0;
    if (getrandom(&value, sizeof value, 0) != static_cast<ssize_t>(sizeof value)) value = static_cast<unsigned int>(fixedclock::mix(static_cast<uint64_t>(fixedclock::now(CLOCK_MONOTONIC))));
    return value;
  }
  return static_cast<unsigned int>(fixedclock::mix(fixedclock::seed * 0x100000001b3ULL + ++fixedclock::draws));
}

namespace {

const int REQUEST_FD = 3;
const int ANSWER_FD = 4;

// ---- JSON: the requests the parent writes (objects of strings, numbers and nested values) -------------------

struct Value {
  enum Kind { Null, Bool, Number, String, Other } kind = Null;
  double number = 0;
  std::string text;
};

class Reader {
 public:
  explicit Reader(const std::string& s) : s_(s) {}

  bool object(std::map<std::string, Value>& out) {
    skip();
    if (!eat('{')) return false;
    skip();
    if (eat('}')) return true;
    for (;;) {
      skip();
      std::string key;
      if (!string(key)) return false;
      skip();
      if (!eat(':')) return false;
      Value value;
      if (!any(value)) return false;
      out[key] = value;
      skip();
      if (eat(',')) continue;
      return eat('}');
    }
  }

 private:
  const std::string& s_;
  size_t at_ = 0;

  void skip() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\r' || s_[at_] == '\n')) at_++;
  }
  bool eat(char c) {
    if (at_ < s_.size() && s_[at_] == c) {
      at_++;
      return true;
    }
    return false;
  }
  static void utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }
  bool string(std::string& out) {
    if (!eat('"')) return false;
    while (at_ < s_.size()) {
      char c = s_[at_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size()) return false;
      char e = s_[at_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (at_ + 4 > s_.size()) return false;
          unsigned code = static_cast<unsigned>(std::strtoul(s_.substr(at_, 4).c_str(), nullptr, 16));
          at_ += 4;
          utf8(out, code);  // surrogate pairs never occur in what the parent sends the C++ host
          break;
        }
        default: out += e;
      }
    }
    return false;
  }
  bool any(Value& value) {
    skip();
    if (at_ >= s_.size()) return false;
    char c = s_[at_];
    if (c == '"') {
      value.kind = Value::String;
      return string(value.text);
    }
    if (c == '{' || c == '[') {
      // Nested values (MoveInfo, the moves played) are skipped whole: the host needs none of them.
      value.kind = Value::Other;
      int depth = 0;
      while (at_ < s_.size()) {
        char d = s_[at_];
        if (d == '"') {
          std::string ignored;
          if (!string(ignored)) return false;
          continue;
        }
        at_++;
        if (d == '{' || d == '[') depth++;
        if (d == '}' || d == ']') {
          if (--depth == 0) return true;
        }
      }
      return false;
    }
    size_t start = at_;
    while (at_ < s_.size() && std::strchr(",}] \t\r\n", s_[at_]) == nullptr) at_++;
    std::string word = s_.substr(start, at_ - start);
    if (word == "null") {
      value.kind = Value::Null;
    } else if (word == "true" || word == "false") {
      value.kind = Value::Bool;
      value.number = word == "true";
    } else {
      char* end = nullptr;
      value.number = std::strtod(word.c_str(), &end);
      if (word.empty() || *end != '\0') return false;
      value.kind = Value::Number;
    }
    return true;
  }
};

/** A JSON string literal; bytes that are not UTF-8 become U+FFFD, so the line always parses. */
std::string quote(const std::string& s) {
  std::string out = "\"";
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += static_cast<char>(c);
      }
      i++;
      continue;
    }
    size_t length = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    bool valid = length > 0 && i + length <= s.size();
    for (size_t k = 1; valid && k < length; k++) valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (valid) {
      out.append(s, i, length);
      i += length;
    } else {
      out += "\\ufffd";
      i++;
    }
  }
  return out + "\"";
}

std::string clip(const std::string& s, size_t most) { return s.size() <= most ? s : s.substr(0, most) + "..."; }

void send(const std::string& line) {
  std::string data = line + "\n";
  const char* p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = write(ANSWER_FD, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(70);  // the parent is gone
    p += n;
    left -= static_cast<size_t>(n);
  }
}

bool readLine(std::string& line) {
  static std::string pending;
  for (;;) {
    size_t newline = pending.find('\n');
    if (newline != std::string::npos) {
      line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      return true;
    }
    char buffer[65536];
    ssize_t n = read(REQUEST_FD, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending.append(buffer, static_cast<size_t>(n));
  }
}

/** Output the player wrote is flushed before each answer, so it belongs to the move that wrote it. */
void flushOutput() {
  std::fflush(stdout);
  std::fflush(stderr);
}

// ---- seccomp: the filter the parent generated, installed on this process before any student code ------------

std::string installSeccomp(const std::string& hex) {
  if (hex.empty() || hex == "-") return "";
  std::vector<unsigned char> bytes(hex.size() / 2);
  for (size_t i = 0; i < bytes.size(); i++) bytes[i] = static_cast<unsigned char>(std::strtoul(hex.substr(2 * i, 2).c_str(), nullptr, 16));
  struct sock_fprog program;
  program.len = static_cast<unsigned short>(bytes.size() / 8);
  program.filter = reinterpret_cast<struct sock_filter*>(bytes.data());
  // The filter lets signals go only to "my own pid" (seccomp.ts SELF_PID_PLACEHOLDER): that is this process.
  for (unsigned short i = 0; i < program.len; i++) {
    if (program.filter[i].code == (BPF_JMP | BPF_JEQ | BPF_K) && program.filter[i].k == 0x5e1f5e1fU) program.filter[i].k = static_cast<__u32>(getpid());
  }
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return std::string("prctl(PR_SET_NO_NEW_PRIVS) failed: ") + std::strerror(errno);
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) return std::string("the kernel refused the filter: ") + std::strerror(errno);
  return "on";
}

// ---- the two interfaces ----------------------------------------------------------------------------------------

// The SDK's Point: a class with public int x, y (its layout is two ints; its constructor is the student's).
struct SdkPoint {
  int x;
  int y;
};
using GetPoint = SdkPoint* (*)(const int, const int, const int*, const int*, const int, const int, const int, const int);
using ClearPoint = void (*)(SdkPoint*);

// Referee's AIPlayer glue (written by the compile step next to the student's code).
using PlayerNew = void* (*)(char);
using PlayerDelete = void (*)(void*);
using PlayerMove = int (*)(void*, const char*, char*, int);
using PlayerGame = const char* (*)();

struct Library {
  void* handle = nullptr;
  GetPoint getPoint = nullptr;
  ClearPoint clearPoint = nullptr;
  PlayerNew playerNew = nullptr;
  PlayerDelete playerDelete = nullptr;
  PlayerMove playerMove = nullptr;
  PlayerGame playerGame = nullptr;
};

Library library;
std::string game;
std::string symbols = "XO";
int side = 0;
void* player = nullptr;

/** The SDK's view of a Connect Four state, from its text: rows from the top down, 'x' 'o' '#', digit runs. */
struct SdkView {
  int M = 0, N = 0;
  std::vector<int> board;  // M*N, row-major, x = row from the top
  std::vector<int> top;
  int lastX = -1, lastY = -1, noX = -1, noY = -1;
};

bool sdkView(const std::string& state, int own, SdkView& view, std::string& why) {
  size_t space = state.find(' ');
  if (space == std::string::npos) {
    why = "the state has no last-move field";
    return false;
  }
  std::vector<std::vector<int>> rows(1);
  std::vector<std::pair<int, int>> noGo;
  for (size_t i = 0; i < space; i++) {
    char c = state[i];
    std::vector<int>& row = rows.back();
    if (c == '/') {
      rows.emplace_back();
    } else if (c == 'x' || c == 'o') {
      int piece = c == 'x' ? 1 : 2;  // the referee's: 1 the first player's disc, 2 the second's
      row.push_back(piece == own ? 2 : 1);
    } else if (c == '#') {
      noGo.emplace_back(static_cast<int>(rows.size()) - 1, static_cast<int>(row.size()));
      row.push_back(0);  // the no-go cell reads 0 in the SDK
    } else if (c >= '1' && c <= '9') {
      int run = c - '0';
      while (i + 1 < space && state[i + 1] >= '0' && state[i + 1] <= '9') run = run * 10 + (state[++i] - '0');
      if (run > 64) {
        why = "a run of empty cells is too long";
        return false;
      }
      row.insert(row.end(), static_cast<size_t>(run), 0);
    } else {
      why = std::string("unexpected character '") + c + "' in the state";
      return false;
    }
  }
  view.M = static_cast<int>(rows.size());
  view.N = static_cast<int>(rows[0].size());
  for (const auto& row : rows) {
    if (static_cast<int>(row.size()) != view.N || view.N == 0) {
      why = "the state's rows differ in length";
      return false;
    }
    view.board.insert(view.board.end(), row.begin(), row.end());
  }
  if (!noGo.empty()) {
    view.noX = noGo[0].first;
    view.noY = noGo[0].second;
  }
  view.top.assign(static_cast<size_t>(view.N), 0);
  for (int y = 0; y < view.N; y++) {
    // The landing cell: the lowest empty cell above the discs (stepping over the no-go cell); top = one below it.
    int landing = -1;
    for (int x = view.M - 1; x >= 0; x--) {
      bool blocked = x == view.noX && y == view.noY;
      if (blocked || view.board[static_cast<size_t>(x * view.N + y)] != 0) continue;
      landing = x;
      break;
    }
    view.top[static_cast<size_t>(y)] = landing + 1;
  }
  std::string last = state.substr(space + 1);
  if (last != "-") {
    view.lastY = std::atoi(last.c_str());
    if (view.lastY < 0 || view.lastY >= view.N) {
      why = "the last move's column is off the board";
      return false;
    }
    // The last disc is the highest in its column.
    for (int x = 0; x < view.M; x++) {
      if (view.board[static_cast<size_t>(x * view.N + view.lastY)] != 0) {
        view.lastX = x;
        break;
      }
    }
  }
  return true;
}

std::string idPart(long id) { return std::string("\"id\":") + std::to_string(id); }

void sendError(long id, const std::string& message) {
  flushOutput();
  send("{\"t\":\"error\"," + idPart(id) + ",\"message\":" + quote(clip(message, 1900)) + "}");
}

void sendMemory(long id, const std::string& message) {
  flushOutput();
  send("{\"t\":\"memory\"," + idPart(id) + ",\"message\":" + quote(clip(message, 1900)) + "}");
}

void sendMove(long id, const std::string& move) {
  flushOutput();
  send("{\"t\":\"move\"," + idPart(id) + ",\"value\":" + quote(move) + "}");
}

/** A returned value that is not a move the referee can read, with what it was (the referee rules it illegal). */
void sendStandIn(long id, const std::string& type, const std::string& text) {
  flushOutput();
  send("{\"t\":\"move\"," + idPart(id) + ",\"standIn\":{\"type\":" + quote(type) + ",\"text\":" + quote(clip(text, 900)) + "}}");
}

void load(long id, const std::string& path) {
  library.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library.handle) {
    const char* why = dlerror();
    sendError(id, std::string("the compiled player could not be loaded: ") + (why ? why : "dlopen failed"));
    return;
  }
  library.getPoint = reinterpret_cast<GetPoint>(dlsym(library.handle, "getPoint"));
  library.clearPoint = reinterpret_cast<ClearPoint>(dlsym(library.handle, "clearPoint"));
  library.playerNew = reinterpret_cast<PlayerNew>(dlsym(library.handle, "referee_player_new"));
  library.playerDelete = reinterpret_cast<PlayerDelete>(dlsym(library.handle, "referee_player_delete"));
  library.playerMove = reinterpret_cast<PlayerMove>(dlsym(library.handle, "referee_player_move"));
  library.playerGame = reinterpret_cast<PlayerGame>(dlsym(library.handle, "referee_player_game"));
  std::vector<std::string> exported;
  for (const char* name : {"getPoint", "clearPoint"}) {
    if (dlsym(library.handle, name)) exported.push_back(name);
  }
  // Defined without extern "C" (no Strategy.h above them): g++ gives them C++ names, which the SDK's harness cannot
  // find either. Said by name, so the hint is the C++ one (load-failure.ts's CXX_LINKAGE_MARK).
  if (!library.getPoint) {
    for (const char* name : {"_Z8getPointiiPKiS0_iiii", "_Z8getPointiiPiS_iiii"}) {
      if (dlsym(library.handle, name)) {
        exported.push_back("getPoint (C++ name: not extern \"C\")");
        break;
      }
    }
  }
  if (!library.clearPoint && dlsym(library.handle, "_Z10clearPointP5Point")) exported.push_back("clearPoint (C++ name: not extern \"C\")");
  if (library.playerNew) exported.push_back("AIPlayer");
  std::string entry = "null";
  if (library.playerNew && library.playerMove && library.playerDelete && library.playerGame) {
    // The Board header names the games it plays, space-separated (connect4.h: "connect4 connect4-nogo").
    std::string built = library.playerGame();
    bool plays = false;
    for (size_t at = 0; at <= built.size();) {
      size_t end = built.find(' ', at);
      if (end == std::string::npos) end = built.size();
      plays = plays || built.substr(at, end - at) == game;
      at = end + 1;
    }
    if (!plays) {
      sendError(id, "this AIPlayer was built for " + built + " (its Board header), but the game is " + game + ": include the " + game + " Board header");
      return;
    }
    // A Board that plays several variants takes the graded one from here (gomoku.h: gomoku-exact5).
    using PlayerSetGame = void (*)(const char*);
    if (auto setGame = reinterpret_cast<PlayerSetGame>(dlsym(library.handle, "referee_player_set_game"))) setGame(game.c_str());
    entry = "\"AIPlayer\"";
  } else if (library.getPoint) {
    if (game != "connect4" && game != "connect4-nogo") {
      sendError(id, "getPoint/clearPoint is the Connect Four SDK's interface, but the game is " + game + ": write a C++ AIPlayer for it (referee init --cpp)");
      return;
    }
    entry = "\"getPoint\"";
  }
  std::string list = "[";
  for (size_t i = 0; i < exported.size(); i++) list += (i ? "," : "") + quote(exported[i]);
  list += "]";
  flushOutput();
  send("{\"t\":\"loaded\"," + idPart(id) + ",\"exports\":" + list + ",\"entry\":" + entry + "}");
}

void start(long id, int newSide, const Value& randomSeed) {
  side = newSide;
  if (randomSeed.kind == Value::Number) fixedclock::startGame(static_cast<uint64_t>(randomSeed.number));
  if (library.playerNew) {
    if (player) library.playerDelete(player);
    player = nullptr;
    try {
      player = library.playerNew(symbols[static_cast<size_t>(side)]);
    } catch (const std::bad_alloc&) {
      sendMemory(id, "std::bad_alloc in the AIPlayer constructor: out of memory");
      return;
    } catch (const std::exception& e) {
      sendError(id, std::string("the AIPlayer constructor threw ") + e.what());
      return;
    } catch (...) {
      sendError(id, "the AIPlayer constructor threw an exception that is not a std::exception");
      return;
    }
  }
  flushOutput();
  send("{\"t\":\"ready\"," + idPart(id) + "}");
}

void moveSdk(long id, const std::string& state) {
  SdkView view;
  std::string why;
  if (!sdkView(state, side == 0 ? 1 : 2, view, why)) {
    sendError(id, "the C++ host could not read the referee's state: " + why);
    return;
  }
  // Copies: whatever the player writes through these pointers changes nothing of the referee's.
  std::vector<int> top = view.top;
  std::vector<int> board = view.board;
  SdkPoint* point = nullptr;
  try {
    point = library.getPoint(view.M, view.N, top.data(), board.data(), view.lastX, view.lastY, view.noX, view.noY);
  } catch (const std::bad_alloc&) {
    sendMemory(id, "std::bad_alloc in getPoint: out of memory");
    return;
  } catch (const std::exception& e) {
    sendError(id, std::string("getPoint threw ") + e.what());
    return;
  } catch (...) {
    sendError(id, "getPoint threw an exception that is not a std::exception");
    return;
  }
  if (!point) {
    sendStandIn(id, "Point*", "nullptr (getPoint returned no point)");
    return;
  }
  int x = point->x;
  int y = point->y;
  if (library.clearPoint) library.clearPoint(point);
  // The SDK's legal point is (top[y] - 1, y): then the move is column y. Any other point is reported as itself.
  if (y >= 0 && y < view.N && view.top[static_cast<size_t>(y)] > 0 && x == view.top[static_cast<size_t>(y)] - 1) {
    sendMove(id, std::to_string(y));
    return;
  }
  std::string text = "Point(" + std::to_string(x) + ", " + std::to_string(y) + ")";
  if (y < 0 || y >= view.N) {
    text += ": column " + std::to_string(y) + " is off the board (0.." + std::to_string(view.N - 1) + ")";
  } else if (view.top[static_cast<size_t>(y)] == 0) {
    text += ": column " + std::to_string(y) + " is full (top[y] = 0)";
  } else {
    text += ": a disc in column " + std::to_string(y) + " lands on row " + std::to_string(view.top[static_cast<size_t>(y)] - 1) + " (top[y] - 1)";
  }
  sendStandIn(id, "Point", text);
}

void movePlayer(long id, const std::string& state) {
  if (!player) {
    sendError(id, "no AIPlayer was built for this game");
    return;
  }
  char out[256];
  out[0] = '\0';
  int status = 0;
  try {
    status = library.playerMove(player, state.c_str(), out, static_cast<int>(sizeof out));
  } catch (const std::bad_alloc&) {
    sendMemory(id, "std::bad_alloc in getMove: out of memory");
    return;
  } catch (const std::exception& e) {
    sendError(id, std::string("getMove threw ") + e.what());
    return;
  } catch (...) {
    sendError(id, "getMove threw an exception that is not a std::exception");
    return;
  }
  out[sizeof out - 1] = '\0';
  if (status == 1) {
    sendError(id, std::string("the C++ Board could not read the referee's state: ") + out);
    return;
  }
  if (status == 2) {
    sendStandIn(id, "std::string", std::string(out) + " (too long to be a move)");
    return;
  }
  sendMove(id, out);
}

/**
 * A fatal signal in the player ends the host with exit code 128 + the signal: the parent reads the signal from the
 * code, because unshare (the layer without bubblewrap) reports every child killed by a signal as SIGSEGV.
 */
void onFatalSignal(int signal) { _exit(128 + signal); }

void reportFatalSignals() {
  static char alternate[1 << 16];  // a stack overflow's SIGSEGV needs a stack of its own
  stack_t stack;
  stack.ss_sp = alternate;
  stack.ss_size = sizeof alternate;
  stack.ss_flags = 0;
  sigaltstack(&stack, nullptr);
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = onFatalSignal;
  action.sa_flags = SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int signal : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL}) sigaction(signal, &action, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  // argv: <player library> <game> <side symbols, e.g. XO> <seccomp filter as hex, or ->
  if (argc < 5) {
    std::fprintf(stderr, "usage: host <player.so> <game> <symbols> <seccomp-hex|->\n");
    return 64;
  }
  std::signal(SIGPIPE, SIG_IGN);
  reportFatalSignals();
  // Line-buffered output reaches the parent as it is written, so a crash loses at most an unfinished line.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::string path = argv[1];
  game = argv[2];
  symbols = argv[3];
  if (symbols.size() < 2) symbols = "XO";
  std::string seccomp = installSeccomp(argv[4]);
  send(seccomp.empty() ? "{\"t\":\"hello\"}" : "{\"t\":\"hello\",\"seccomp\":" + quote(clip(seccomp, 280)) + "}");

  std::string line;
  while (readLine(line)) {
    std::map<std::string, Value> request;
    Reader reader(line);
    if (!reader.object(request)) continue;
    const std::string kind = request["t"].text;
    long id = static_cast<long>(request["id"].number);
    if (kind == "load") {
      load(id, path);
    } else if (kind == "start") {
      start(id, request["side"].number == 1 ? 1 : 0, request["randomSeed"]);
    } else if (kind == "move") {
      fixedclock::beginRequest(fixedclock::request + 1);
      if (library.playerNew) {
        movePlayer(id, request["state"].text);
      } else if (library.getPoint) {
        moveSdk(id, request["state"].text);
      } else {
        sendError(id, "the player exports neither getPoint nor an AIPlayer");
      }
    }
  }
  return 0;
}
