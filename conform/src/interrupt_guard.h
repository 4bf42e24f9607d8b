// The runner's signal handling, shared by the process pool and the serve transport: while a
// guard lives, an interrupt sets g_interrupted (and wakes poll), SIGCHLD has its default
// disposition and SIGPIPE is ignored (a reader that closed its stdin is a write error, not the
// end of the runner); and the spawn attributes every reader process starts with.
#pragma once

#include <signal.h>
#include <spawn.h>

namespace voxrig::conform::detail {

inline volatile sig_atomic_t g_interrupted = 0;
extern "C" inline void on_interrupt(int) { g_interrupted = 1; }

class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = 0;
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
    // An ignored SIGCHLD would auto-reap the children and lose their exit status.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGCHLD, &dfl, &old_chld_);
    struct sigaction ign {};
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old_pipe_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGCHLD, &old_chld_, nullptr);
    sigaction(SIGPIPE, &old_pipe_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
  struct sigaction old_chld_ {};
  struct sigaction old_pipe_ {};
};

/// Initializes `attr` for a reader process: its own process group (so a kill reaches its
/// children), an empty signal mask and default dispositions (whatever the runner blocks or
/// ignores). The caller destroys it.
inline void init_reader_spawn_attributes(posix_spawnattr_t* attr) {
  posix_spawnattr_init(attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(attr, &none);
  posix_spawnattr_setsigdefault(attr, &all);
  posix_spawnattr_setpgroup(attr, 0);
  posix_spawnattr_setflags(attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

}  // namespace voxrig::conform::detail
