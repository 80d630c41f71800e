import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for SIGTERM/SIGINT (or an explicit wake-up) with a self-pipe.
///
/// The handler is installed with `sigaction` before ``wait()`` blocks, so a signal can never slip
/// through between "ready" and "listening" (a Dispatch signal source registers asynchronously).
final class TerminationSignal: Sendable {
    /// The write end the async-signal-safe handler writes to (-1 when nobody waits).
    private static let handlerPipe = Atomic<Int32>(-1)

    private let readEnd: Int32
    /// The write end; ``wake()`` writes to it from any thread.
    let writeEnd: Int32

    /// Creates the pipe; nil if the system has no descriptors left.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// Wakes ``wait()`` (used by `stop()`).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Installs the SIGTERM/SIGINT handlers and unblocks both signals in the calling thread; returns once they are
    /// in place. A process inherits its parent's blocked signals (a supervisor or test runner that spawns the server
    /// from a thread that blocks them): without unblocking, SIGTERM would stay pending for ever.
    func install() {
        Self.handlerPipe.store(writeEnd, ordering: .sequentiallyConsistent)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGTERM)
        sigaddset(&unblocked, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for number in [SIGTERM, SIGINT] {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = { _ in TerminationSignal.signalled() }
            #else
                action.__sigaction_u.__sa_handler = { _ in TerminationSignal.signalled() }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// Blocks until a signal or ``wake()``.
    func wait() {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
    }

    /// Restores the default signal dispositions.
    func uninstall() {
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        Self.handlerPipe.store(-1, ordering: .sequentiallyConsistent)
    }

    /// The signal handler body: async-signal-safe (an atomic load and a `write`).
    private static func signalled() {
        let fd = handlerPipe.load(ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        let saved = errno
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
        errno = saved
    }
}
