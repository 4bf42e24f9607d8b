// The runner's side of `COMMAND serve` (voxrig/conform/serve.h): persistent workers driven by one
// single-threaded poll loop, like the process pool, so judging stays on the caller's thread.
//
// Each worker is in one of three states: not running, waiting for its hello answer (a fresh
// start, with a request already assigned), or waiting for the answer to that request. Anything
// that goes wrong while a request is assigned ends that request and kills the worker; the next
// request assigned to the slot starts a new one.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <chrono>
#include <cstring>
#include <deque>
#include <nlohmann/json.hpp>

#include "interrupt_guard.h"
#include "voxrig/conform/serve.h"
#include "voxrig/enum_names.h"

extern char** environ;

namespace voxrig::conform {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::json;
constexpr size_t kNone = size_t(-1);

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Clock::time_point after(double seconds) {
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

struct Worker {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;  // our ends: write requests, read answers and stderr
  std::string line;                 // stdout bytes of the answer being received
  bool hello_pending = false;
  size_t index = kNone;  // request in flight (kNone: idle)
  uint64_t id = 0;       // its id on the wire
  Clock::time_point start, deadline;
  RunOutcome outcome;

  bool running() const { return pid > 0; }

  // Kills the process group, reaps the leader and closes the pipes. Returns the wait status
  // (0 when it was not running).
  int stop() {
    int status = 0;
    close_fd(in);
    if (pid > 0) {
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid = -1;
    close_fd(out);
    close_fd(err);
    line.clear();
    hello_pending = false;
    return status;
  }

  // Starts `argv` with three pipes in its own process group. "" or why it could not.
  std::string spawn(const std::vector<std::string>& argv) {
    int p[3][2];
    for (int k = 0; k < 3; ++k)
      if (::pipe2(p[k], O_CLOEXEC) != 0) {
        const std::string why = std::string("pipe: ") + std::strerror(errno);
        for (int j = 0; j < k; ++j) ::close(p[j][0]), ::close(p[j][1]);
        return why;
      }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[0][0], 0);
    posix_spawn_file_actions_adddup2(&fa, p[1][1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[2][1], 2);
    posix_spawnattr_t attr;
    detail::init_reader_spawn_attributes(&attr);
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    const int rc = argv.empty() ? EINVAL
                                : ::posix_spawn(&pid, cargv[0], &fa, &attr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    ::close(p[0][0]);
    ::close(p[1][1]);
    ::close(p[2][1]);
    if (rc != 0) {
      pid = -1;
      ::close(p[0][1]), ::close(p[1][0]), ::close(p[2][0]);
      return (argv.empty() ? std::string("empty command") : argv[0]) + ": " + std::strerror(rc);
    }
    in = p[0][1];
    out = p[1][0];
    err = p[2][0];
    ::fcntl(out, F_SETFL, ::fcntl(out, F_GETFL) | O_NONBLOCK);
    ::fcntl(err, F_SETFL, ::fcntl(err, F_GETFL) | O_NONBLOCK);
    return "";
  }

  // Writes one line (requests are small; the reader reads between answers). False on EPIPE.
  bool send(const std::string& text) {
    const std::string l = text + "\n";
    for (size_t at = 0; at < l.size();) {
      const ssize_t n = ::write(in, l.data() + at, l.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      at += size_t(n);
    }
    return true;
  }
};

std::string request_line(uint64_t id, const ReaderRequest& r) {
  Json j{{"id", id}, {"op", r.args.empty() ? std::string() : r.args[0]}};
  j["args"] = std::vector<std::string>(r.args.begin() + (r.args.empty() ? 0 : 1), r.args.end());
  return j.dump();
}

std::string hello_line() {
  return Json{{"id", 0}, {"op", "hello"}, {"protocol", std::string(kServeProtocol)}}.dump();
}

// At most `max` characters of `s` on one line (a reason sits inside one summary line).
std::string clip(std::string_view s, size_t max = 120) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
    s.remove_suffix(1);
  std::string out(s.substr(0, max));
  for (char& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max) out += "...";
  return out;
}

// Parses a hello answer line into `h`. "" or what is wrong with it.
std::string parse_hello(const std::string& line, ServeHello& h) {
  Json j = Json::parse(line, nullptr, false);
  if (!j.is_object()) return "the hello answer is not one JSON object: " + clip(line);
  auto proto = j.find("protocol");
  if (proto == j.end() || !proto->is_string() || *proto != kServeProtocol)
    return "the hello answer does not carry \"protocol\": \"" + std::string(kServeProtocol) +
           "\": " + clip(line);
  for (auto [key, list] : {std::pair{"ops", &h.ops}, {"profiles", &h.profiles}}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    if (!it->is_array()) return std::string("\"") + key + "\" is not an array of strings";
    for (const auto& v : *it)
      if (v.is_string()) list->push_back(v.get<std::string>());
  }
  if (j.find("ops") == j.end()) h.ops = {"dump"};
  return "";
}

// Parses an answer to request `id` into `o`. "" or what is wrong with it.
std::string parse_answer(const std::string& line, uint64_t id, RunOutcome& o) {
  Json j = Json::parse(line, nullptr, false);
  if (!j.is_object()) return "the answer is not one JSON object: " + clip(line);
  auto jid = j.find("id");
  if (jid == j.end() || !jid->is_number_unsigned() || jid->get<uint64_t>() != id)
    return "the answer's \"id\" is not the request's (" + std::to_string(id) + "): " + clip(line);
  auto ex = j.find("exit");
  auto out = j.find("stdout");
  if (ex == j.end() || !ex->is_number_integer() || out == j.end() || !out->is_string())
    return "the answer lacks an integer \"exit\" or a string \"stdout\": " + clip(line);
  o.exit_code = ex->get<int>();
  o.out = out->get<std::string>();
  if (auto e = j.find("stderr"); e != j.end() && e->is_string()) o.err += e->get<std::string>();
  return "";
}

// Why a worker that ended (wait status `status`) did not answer.
void ended(RunOutcome& o, int status, bool in_hello) {
  if (WIFSIGNALED(status)) {
    o.signal = WTERMSIG(status);
    return;
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.protocol_error = std::string("the reader ended (exit ") + std::to_string(code) + ") before " +
                     (in_hello ? "answering hello" : "answering the request");
  if (!o.err.empty()) o.protocol_error += "; stderr: " + clip(o.err, 200);
  if (code > 128 && code <= 128 + 64) {  // a shell's report of a signal: judged as one
    o.protocol_error.clear();
    o.signal = code - 128;
  }
}

class ServeTransport final : public ReaderTransport {
 public:
  ServeTransport(std::vector<std::string> argv, ServeHello hello, const PoolOptions& pool,
                 double hello_timeout_seconds)
      : argv_(std::move(argv)),
        hello_(std::move(hello)),
        pool_(pool),
        hello_timeout_(hello_timeout_seconds) {
    argv_.push_back("serve");
    pool_.parallel = std::clamp(pool_.parallel, 1u, 64u);
    workers_.resize(pool_.parallel);
    one_shot_argv_ = argv_;
    one_shot_argv_.pop_back();
  }
  ~ServeTransport() override {
    for (Worker& w : workers_) w.stop();
  }

  bool run(std::span<const ReaderRequest> requests,
           const std::function<void(size_t, RunOutcome&&)>& done) override {
    std::deque<size_t> queue;
    std::vector<size_t> others;
    for (size_t i = 0; i < requests.size(); ++i)
      (serves(requests[i]) ? queue.push_back(i) : others.push_back(i));
    if (!serve_all(requests, queue, done)) return false;
    if (others.empty()) return true;
    std::vector<ProcessJob> jobs;
    for (size_t i : others) {
      jobs.push_back({one_shot_argv_});
      jobs.back().argv.insert(jobs.back().argv.end(), requests[i].args.begin(),
                              requests[i].args.end());
    }
    return run_processes(jobs, pool_,
                         [&](size_t k, RunOutcome&& o) { done(others[k], std::move(o)); });
  }

 private:
  bool serves(const ReaderRequest& r) const {
    return !r.args.empty() &&
           std::find(hello_.ops.begin(), hello_.ops.end(), r.args[0]) != hello_.ops.end();
  }

  // Ends worker `w`'s request with its outcome (the worker is stopped first when `kill`).
  void finish(Worker& w, const std::function<void(size_t, RunOutcome&&)>& done, bool kill) {
    if (kill) w.stop();
    w.outcome.seconds = std::chrono::duration<double>(Clock::now() - w.start).count();
    const size_t index = w.index;
    w.index = kNone;
    RunOutcome o = std::move(w.outcome);
    w.outcome = {};
    done(index, std::move(o));
  }

  // Assigns request `index` to idle worker `w`, starting it (hello first) if needed.
  void assign(Worker& w, size_t index, const ReaderRequest& r,
              const std::function<void(size_t, RunOutcome&&)>& done) {
    w.index = index;
    w.id = ++next_id_;
    w.start = Clock::now();
    w.deadline = after(pool_.timeout_seconds);
    w.outcome = {};
    if (!w.running()) {
      // A start is not the request's time: the request's timeout begins once hello is answered.
      w.deadline = after(hello_timeout_);
      if (std::string why = w.spawn(argv_); !why.empty()) {
        w.outcome.started = false;
        w.outcome.spawn_error = why;
        finish(w, done, false);
        return;
      }
      w.hello_pending = true;
      w.send(hello_line());  // on failure the EOF that follows reports how the reader ended
      return;
    }
    if (!w.send(request_line(w.id, r))) {
      w.outcome.protocol_error = "the reader closed its stdin";
      finish(w, done, true);
    }
  }

  // A complete line arrived from worker `w`.
  void on_line(Worker& w, std::span<const ReaderRequest> requests,
               const std::function<void(size_t, RunOutcome&&)>& done) {
    std::string line = std::move(w.line);
    w.line.clear();
    if (w.hello_pending) {
      ServeHello h;
      if (std::string why = parse_hello(line, h); !why.empty()) {
        w.outcome.protocol_error = why;
        finish(w, done, true);
        return;
      }
      w.hello_pending = false;
      w.start = Clock::now();
      w.deadline = after(pool_.timeout_seconds);
      if (!w.send(request_line(w.id, requests[w.index]))) {
        w.outcome.protocol_error = "the reader closed its stdin";
        finish(w, done, true);
      }
      return;
    }
    if (std::string why = parse_answer(line, w.id, w.outcome); !why.empty()) {
      w.outcome.protocol_error = why;
      finish(w, done, true);
      return;
    }
    finish(w, done, false);
  }

  // Appends stderr bytes to the request's outcome, up to pool_.max_stderr (the rest is dropped).
  void keep_stderr(Worker& w, std::string_view bytes) {
    const size_t room = pool_.max_stderr - std::min(pool_.max_stderr, w.outcome.err.size());
    w.outcome.err.append(bytes.substr(0, room));
  }

  // Reads what is already in worker `w`'s stderr pipe, without waiting for more.
  void take_stderr(Worker& w) {
    char buf[65536];
    while (w.err >= 0) {
      const ssize_t n = ::read(w.err, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;  // EAGAIN: nothing more yet; 0: closed
      keep_stderr(w, {buf, size_t(n)});
    }
  }

  // Reads what worker `w` has on stdout (s = 0) or stderr (s = 1).
  void drain(Worker& w, int s, std::span<const ReaderRequest> requests,
             const std::function<void(size_t, RunOutcome&&)>& done) {
    char buf[65536];
    while (w.index != kNone) {
      int& fd = s == 0 ? w.out : w.err;
      if (fd < 0) return;
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (n <= 0) {  // EOF: on stdout the reader can no longer answer
        close_fd(fd);
        if (s == 1) return;
        // What it wrote to stderr before it ended belongs to this request (often why it ended).
        take_stderr(w);
        const bool in_hello = w.hello_pending;
        const int status = w.stop();
        ended(w.outcome, status, in_hello);
        finish(w, done, false);
        return;
      }
      if (s == 1) {
        keep_stderr(w, {buf, size_t(n)});
        continue;
      }
      std::string_view chunk(buf, size_t(n));
      while (!chunk.empty() && w.index != kNone) {
        const size_t nl = chunk.find('\n');
        w.line.append(chunk.substr(0, nl));
        if (w.line.size() > pool_.max_stdout) {
          w.outcome.output_overflow = true;
          finish(w, done, true);
          return;
        }
        if (nl == std::string_view::npos) break;
        chunk.remove_prefix(nl + 1);
        if (!chunk.empty()) {  // strictly one line per request: more is garbage
          w.outcome.protocol_error = "more than one line in answer to one request: " +
                                     clip(w.line) + " / " + clip(chunk);
          finish(w, done, true);
          return;
        }
        on_line(w, requests, done);
      }
    }
  }

  bool serve_all(std::span<const ReaderRequest> requests, std::deque<size_t>& queue,
                 const std::function<void(size_t, RunOutcome&&)>& done) {
    detail::InterruptGuard guard;
    auto busy = [&] {
      return std::any_of(workers_.begin(), workers_.end(),
                         [](const Worker& w) { return w.index != kNone; });
    };
    while (!queue.empty() || busy()) {
      if (detail::g_interrupted) {
        for (Worker& w : workers_) w.stop(), w.index = kNone;
        return false;
      }
      for (Worker& w : workers_)
        if (w.index == kNone && !queue.empty()) {
          const size_t i = queue.front();
          queue.pop_front();
          assign(w, i, requests[i], done);
        }
      std::vector<pollfd> fds;
      std::vector<std::pair<Worker*, int>> owner;
      auto wait = std::chrono::milliseconds(50);
      const auto now = Clock::now();
      for (Worker& w : workers_) {
        if (w.index == kNone) continue;
        for (int s = 0; s < 2; ++s)
          if (const int fd = s == 0 ? w.out : w.err; fd >= 0) {
            fds.push_back({fd, POLLIN, 0});
            owner.emplace_back(&w, s);
          }
        auto left = std::chrono::ceil<std::chrono::milliseconds>(w.deadline - now);
        wait = std::clamp(left, std::chrono::milliseconds(0), wait);
      }
      if (::poll(fds.data(), fds.size(), int(wait.count())) > 0)
        for (size_t k = 0; k < fds.size(); ++k)
          if (fds[k].revents != 0) drain(*owner[k].first, owner[k].second, requests, done);
      for (Worker& w : workers_)
        if (w.index != kNone && Clock::now() >= w.deadline) {
          char buf[80];
          std::snprintf(buf, sizeof buf, "a restarted worker did not answer hello within %g s",
                        hello_timeout_);
          if (w.hello_pending)
            w.outcome.protocol_error = buf;
          else
            w.outcome.timed_out = true;
          finish(w, done, true);
        }
    }
    return true;
  }

  std::vector<std::string> argv_, one_shot_argv_;
  ServeHello hello_;
  PoolOptions pool_;
  double hello_timeout_;
  std::vector<Worker> workers_;
  uint64_t next_id_ = 0;
};

}  // namespace

constexpr EnumName<ReaderProtocol> kProtocolNames[] = {
    {ReaderProtocol::Auto, "auto"}, {ReaderProtocol::Serve, "serve"},
    {ReaderProtocol::OneShot, "oneshot"}};

std::string_view to_string(ReaderProtocol p) { return name_of(kProtocolNames, p, "auto"); }

std::optional<ReaderProtocol> reader_protocol_from_string(std::string_view name) {
  return value_of(kProtocolNames, name);
}

bool ServeHello::claims(std::string_view profile) const {
  return !ok || profiles.empty() ||
         std::find(profiles.begin(), profiles.end(), profile) != profiles.end();
}

ServeHello probe_serve(const std::vector<std::string>& reader_argv, double timeout_seconds) {
  ServeHello h;
  detail::InterruptGuard guard;
  Worker w;
  std::vector<std::string> argv = reader_argv;
  argv.push_back("serve");
  if (std::string why = w.spawn(argv); !why.empty()) {
    h.problem = why;
    return h;
  }
  const auto deadline = after(timeout_seconds);
  bool sent = w.send(hello_line());
  std::string err;
  while (sent && Clock::now() < deadline && !detail::g_interrupted) {
    pollfd fds[2] = {{w.out, POLLIN, 0}, {w.err, w.err >= 0 ? short(POLLIN) : short(0), 0}};
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (::poll(fds, 2, int(std::max<long>(0, left.count()))) <= 0) continue;
    char buf[4096];
    if (fds[1].revents != 0) {
      const ssize_t n = ::read(w.err, buf, sizeof buf);
      if (n > 0 && err.size() < 4096) err.append(buf, size_t(n));
      if (n == 0) close_fd(w.err);
    }
    if (fds[0].revents == 0) continue;
    const ssize_t n = ::read(w.out, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) break;
    w.line.append(buf, size_t(n));
    if (const size_t nl = w.line.find('\n'); nl != std::string::npos) {
      h.problem = parse_hello(w.line.substr(0, nl), h);
      h.ok = h.problem.empty();
      w.stop();
      return h;
    }
    if (w.line.size() > 65536) break;
  }
  const bool timed_out = sent && Clock::now() >= deadline;
  const int status = w.stop();
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "no answer to hello within %g s", timeout_seconds);
    h.problem = buf;
  } else {
    RunOutcome o;
    o.err = err;
    ended(o, status, true);
    h.problem = o.signal ? "killed by signal " + std::to_string(o.signal) : o.protocol_error;
  }
  return h;
}

std::unique_ptr<ReaderTransport> serve_transport(std::vector<std::string> reader_argv,
                                                 ServeHello hello, const PoolOptions& pool,
                                                 double hello_timeout_seconds) {
  return std::make_unique<ServeTransport>(std::move(reader_argv), std::move(hello), pool,
                                          hello_timeout_seconds);
}

std::unique_ptr<ReaderTransport> reader_transport(const std::vector<std::string>& reader_argv,
                                                  ReaderProtocol protocol, const PoolOptions& pool,
                                                  double hello_timeout_seconds, ServeHello* hello) {
  ServeHello h;
  if (protocol != ReaderProtocol::OneShot) h = probe_serve(reader_argv, hello_timeout_seconds);
  if (hello) *hello = h;
  if (h.ok) return serve_transport(reader_argv, std::move(h), pool, hello_timeout_seconds);
  if (protocol == ReaderProtocol::Serve) return nullptr;
  return process_transport(reader_argv, pool);
}

}  // namespace voxrig::conform
