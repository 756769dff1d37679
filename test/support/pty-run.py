"""Runs one command on a new pseudo-terminal (see pty.ts for the protocol).

argv[1] is JSON {argv, env, rows, columns, cwd}. The terminal's output is copied to stdout byte
for byte, stdin is copied to the terminal as typed keys, and fd 3 gets JSON lines: {"pid": N} once
the command started, then {"exitCode", "signal", "mode"} with the terminal's mode after it ended.
"""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios

spec = json.loads(sys.argv[1])
pid, master = pty.fork()
if pid == 0:
    # Sized before exec, so the command reads the right width from its first instruction on.
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", spec["rows"], spec["columns"], 0, 0))
    if spec.get("cwd"):
        os.chdir(spec["cwd"])
    try:
        os.execvpe(spec["argv"][0], spec["argv"], spec["env"])
    except OSError as error:
        os.write(2, f"pty-run: cannot run {spec['argv'][0]}: {error.strerror}\n".encode())
        os._exit(127)

control = os.fdopen(3, "w")
control.write(json.dumps({"pid": pid}) + "\n")
control.flush()


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


stdin_open = True
while True:
    readable, _, _ = select.select([master] + ([0] if stdin_open else []), [], [])
    if master in readable:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal's other end has closed it
            data = b""
        if not data:
            break
        write_all(1, data)
    if 0 in readable:
        keys = os.read(0, 4096)
        if keys:
            write_all(master, keys)
        else:
            stdin_open = False

iflag, oflag, _, lflag, _, _, _ = termios.tcgetattr(master)
_, status = os.waitpid(pid, 0)
control.write(json.dumps({
    "exitCode": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
    "signal": signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else None,
    "mode": {
        "echo": bool(lflag & termios.ECHO),
        "canonical": bool(lflag & termios.ICANON),
        "signals": bool(lflag & termios.ISIG),
        "crToNewline": bool(iflag & termios.ICRNL),
        "outputProcessing": bool(oflag & termios.OPOST),
    },
}) + "\n")
control.flush()
