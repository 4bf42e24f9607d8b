// The conform process pool: posix_spawn + one poll loop over every child's stdout/stderr.
//
// Why a single-threaded poll loop: judging happens on the caller's thread between polls, no
// locks are needed, and a pipe is never left undrained long enough to block a child. Exit is
// detected with waitid(WNOHANG) after each wake-up; poll waits at most 50 ms so a child whose
// pipes are held open by a grandchild is still noticed.
#include "voxrig/conform/process_pool.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <filesystem>

#include "interrupt_guard.h"

extern char** environ;

namespace voxrig::conform {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  size_t index = 0;
  pid_t pid = -1;
  int fd[2] = {-1, -1};  // stdout, stderr read ends
  Clock::time_point start, deadline;
  bool exited = false;
  int status = 0;
  RunOutcome outcome;
};

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void kill_group(const Running& r) {
  if (r.pid > 0) ::kill(-r.pid, SIGKILL);
}

// Starts one job; on failure returns a Running with pid -1 and `outcome.started == false`.
Running spawn(size_t index, const ProcessJob& job, const PoolOptions& opt) {
  Running r;
  r.index = index;
  r.start = Clock::now();
  r.deadline = r.start + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(opt.timeout_seconds));
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) {
    r.outcome.started = false;
    r.outcome.spawn_error = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    r.outcome.started = false;
    r.outcome.spawn_error = std::string("pipe: ") + std::strerror(errno);
    ::close(out[0]);
    ::close(out[1]);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawnattr_t attr;
  detail::init_reader_spawn_attributes(&attr);
  std::vector<char*> argv;
  for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc =
      job.argv.empty() ? EINVAL : ::posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    ::close(out[0]);
    ::close(err[0]);
    r.outcome.started = false;
    r.outcome.spawn_error =
        (job.argv.empty() ? std::string("empty command") : job.argv[0]) + ": " + std::strerror(rc);
    return r;
  }
  r.pid = pid;
  r.fd[0] = out[0];
  r.fd[1] = err[0];
  for (int fd : r.fd) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return r;
}

// Reads what is available on stream `s` (0 stdout, 1 stderr) without blocking.
void drain(Running& r, int s, const PoolOptions& opt) {
  char buf[65536];
  std::string& sink = s == 0 ? r.outcome.out : r.outcome.err;
  const size_t cap = s == 0 ? opt.max_stdout : opt.max_stderr;
  while (r.fd[s] >= 0) {
    const ssize_t n = ::read(r.fd[s], buf, sizeof buf);
    if (n > 0) {
      const size_t room = cap - std::min(cap, sink.size());
      sink.append(buf, std::min(room, static_cast<size_t>(n)));
      if (static_cast<size_t>(n) > room && s == 0 && !r.outcome.output_overflow) {
        r.outcome.output_overflow = true;
        kill_group(r);
      }
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    close_fd(r.fd[s]);  // EOF or a read error
  }
}

}  // namespace

bool run_processes(const std::vector<ProcessJob>& jobs, const PoolOptions& options,
                   const std::function<void(size_t, RunOutcome&&)>& done) {
  PoolOptions opt = options;
  opt.parallel = std::clamp(opt.parallel, 1u, 64u);
  detail::InterruptGuard guard;
  std::vector<Running> running;
  size_t next = 0;
  bool interrupted = false;
  auto finish = [&](Running& r) {
    for (int s = 0; s < 2; ++s) close_fd(r.fd[s]);
    r.outcome.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
    if (WIFEXITED(r.status))
      r.outcome.exit_code = WEXITSTATUS(r.status);
    else if (WIFSIGNALED(r.status) && !r.outcome.timed_out && !r.outcome.output_overflow)
      r.outcome.signal = WTERMSIG(r.status);
    done(r.index, std::move(r.outcome));
  };
  while (next < jobs.size() || !running.empty()) {
    if (detail::g_interrupted && !interrupted) {
      interrupted = true;
      next = jobs.size();
      for (Running& r : running) kill_group(r);
    }
    while (running.size() < opt.parallel && next < jobs.size()) {
      Running r = spawn(next, jobs[next], opt);
      ++next;
      if (r.pid < 0) {
        done(r.index, std::move(r.outcome));
        continue;
      }
      running.push_back(std::move(r));
    }
    if (running.empty()) continue;

    std::vector<pollfd> fds;
    std::vector<std::pair<size_t, int>> owner;  // (running index, stream)
    auto now = Clock::now();
    auto wait = std::chrono::milliseconds(50);
    for (size_t i = 0; i < running.size(); ++i) {
      Running& r = running[i];
      for (int s = 0; s < 2; ++s)
        if (r.fd[s] >= 0) {
          fds.push_back({r.fd[s], POLLIN, 0});
          owner.emplace_back(i, s);
        }
      // Pipes closed but not yet reaped: the exit is moments away, look again soon.
      if (r.fd[0] < 0 && r.fd[1] < 0) wait = std::chrono::milliseconds(1);
      if (!r.outcome.timed_out) {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(r.deadline - now);
        wait = std::clamp(left, std::chrono::milliseconds(0), wait);
      }
    }
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(wait.count()));
    if (ready > 0)
      for (size_t k = 0; k < fds.size(); ++k)
        if (fds[k].revents != 0) drain(running[owner[k].first], owner[k].second, opt);

    now = Clock::now();
    for (size_t i = 0; i < running.size();) {
      Running& r = running[i];
      if (!r.exited) {
        // WNOWAIT keeps the leader a zombie, so its pid (and group id) cannot be reused while
        // the stragglers of its group are killed; only then is it reaped.
        siginfo_t si{};
        const int w = ::waitid(P_PID, static_cast<id_t>(r.pid), &si, WEXITED | WNOHANG | WNOWAIT);
        if (w == 0 && si.si_pid == r.pid) {
          kill_group(r);
          while (::waitpid(r.pid, &r.status, 0) < 0 && errno == EINTR) {
          }
          r.exited = true;
        } else if (w < 0 && errno == ECHILD) {
          r.exited = true;  // reaped behind our back; status unknown
        }
      }
      if (!r.exited && !r.outcome.timed_out && now >= r.deadline) {
        r.outcome.timed_out = true;
        kill_group(r);
      }
      if (r.exited) {
        // Whatever the leader wrote is in the pipes now; its group's stragglers were killed,
        // so a pipe held open by a background child cannot keep the run waiting.
        drain(r, 0, opt);
        drain(r, 1, opt);
        finish(r);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      ++i;
    }
  }
  return !interrupted;
}

std::vector<std::string> shell_command(const std::string& command,
                                       const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", command + " \"$@\"", "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::string self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

unsigned available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1u;
}

}  // namespace voxrig::conform
