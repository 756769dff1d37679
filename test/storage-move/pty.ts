import { execa } from 'execa';
import { BIN, isolatedEnv } from '../support/harness.js';

// Runs the CLI with stdin, stdout and stderr on a real pseudo-terminal of 80x24 and returns all it wrote there.
const PTY_RUNNER = `
import fcntl, os, pty, struct, sys, termios
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 24, 80, 0, 0))
    os.execvpe(sys.argv[1], sys.argv[1:], os.environ)
out = b''
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
sys.exit(os.waitstatus_to_exitcode(status))
`;

export async function svcOnTerminal(args: string[], env: Record<string, string>): Promise<{ exitCode: number; screen: string }> {
  const r = await execa('python3', ['-c', PTY_RUNNER, process.execPath, BIN, ...args], {
    env: { ...isolatedEnv({ env }), TERM: 'xterm' },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  return { exitCode: r.exitCode ?? -1, screen: String(r.stdout) };
}
