# Waits on a condition, not on the clock: a test that sleeps a fixed time is slow on an idle
# machine and flaky on a loaded one (the suite runs two workers per core beside other work).
# A poll returns as soon as the condition holds and fails, naming what it waited for, only at
# its deadline, which is generous for that reason.
import os
import threading
import time

EVERY_S = 0.05     # between two looks: short against every wait here, cheap to look
DEADLINE_S = 8.0   # a page, a simulated board or a child process answers well within this


def until(cond, what, seconds=DEADLINE_S, every=EVERY_S, sleep=time.sleep):
    """cond()'s first true answer (returned), looked at every `every` seconds; an
    AssertionError naming `what` after `seconds`. sleep: how to pass the time between looks
    (a Playwright page's wait_for_timeout, so that its event handlers and routes run)."""
    end = time.monotonic() + seconds
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() >= end:
            raise AssertionError("timed out after %.0f s waiting for %s" % (seconds, what))
        sleep(every)


def waiting(pid):
    """Whether process pid sleeps in the kernel (a read, a wait): a server back at its input
    after an answer, a command at its prompt (Linux's /proc/PID/stat, state S)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].startswith("S")  # after the name, which may hold spaces


def answered(obj, name, more, what, seconds=DEADLINE_S, sleep=time.sleep):
    """Waits until `more` calls of obj.name begun from now on have returned (the page's polls
    reach the twin's state(): "five more polls" without guessing how long five take), the
    method doing its work meanwhile and put back after."""
    plain = getattr(obj, name)
    done = [0]
    lock = threading.Lock()

    def counted(*args, **kw):
        try:
            return plain(*args, **kw)
        finally:
            with lock:
                done[0] += 1
    setattr(obj, name, counted)
    try:
        until(lambda: done[0] >= more, what, seconds, sleep=sleep)
    finally:
        setattr(obj, name, plain)


class Output:
    """A child's output read on a thread as it comes (a prompt has no newline), so a test can
    wait for a text with a deadline instead of sleeping: `wait_for` returns where it ends, to
    wait for the next text after it."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.chunks = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while True:
            chunk = os.read(self.fd, 4096)
            if not chunk:
                return
            with self.lock:
                self.chunks.append(chunk)

    def so_far(self):
        with self.lock:
            return b"".join(self.chunks).decode("utf-8", "replace")

    def wait_for(self, text, start=0, seconds=30.0):
        """Where text ends in the output, looked for from `start` on."""
        def found():
            at = self.so_far().find(text, start)
            return at + len(text) if at >= 0 else 0
        return until(found, "%r in the output" % text, seconds)

    def text(self, seconds=60.0):
        """All of it, once the stream has ended (the child's exit closes it)."""
        self.thread.join(seconds)
        return self.so_far()
