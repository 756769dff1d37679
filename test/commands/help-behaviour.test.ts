import { describe, expect, it } from 'vitest';
import { svc } from '../support/harness.js';

const env = { COLUMNS: '100' };

/** Help as gh gives it (#9 item 8): asked for in any of the usual ways, on stdout, exit 0. */
describe('help', () => {
  it('svc alone and svc help print the whole help on stdout and exit 0', async () => {
    const bare = await svc([], { env });
    const help = await svc(['help'], { env });
    const flag = await svc(['--help'], { env });
    for (const result of [bare, help, flag]) {
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe('');
    }
    expect(bare.stdout).toBe(flag.stdout);
    expect(help.stdout).toBe(flag.stdout);
    expect(flag.stdout.startsWith('Usage: svc [options] [command]\n')).toBe(true);
  });

  it('svc help NOUN VERB shows that verb, and a noun without its verb shows the noun', async () => {
    const verb = await svc(['help', 'projects', 'list'], { env });
    expect(verb.exitCode).toBe(0);
    expect(verb.stdout).toBe((await svc(['projects', 'list', '--help'], { env })).stdout);
    expect(verb.stdout.split('\n')[0]).toBe('Usage: svc projects list [options]');
    const noun = await svc(['storage-move'], { env });
    expect(noun.exitCode).toBe(0);
    expect(noun.stderr).toBe('');
    expect(noun.stdout).toBe((await svc(['help', 'storage-move'], { env })).stdout);
    expect(noun.stdout.split('\n')[0]).toBe('Usage: svc storage-move [options] [command]');
  });

  it('shows the global options once, in svc --help, and none that do not apply under a command', async () => {
    expect((await svc(['--help'], { env })).stdout).toContain('  --token <token>');
    for (const args of [
      ['projects', '--help'],
      ['projects', 'list', '--help'],
      ['sandbox', '--help'],
    ]) {
      const result = await svc(args, { env });
      expect(result.stdout, args.join(' ')).not.toContain('Global Options');
      expect(result.stdout, args.join(' ')).not.toContain('--token <token>');
    }
  });

  it('wraps every text to the terminal width, examples aside', async () => {
    for (const args of [['--help'], ['snippets', 'create', '--help'], ['releases', 'list', '--help']]) {
      const { stdout } = await svc(args, { env: { COLUMNS: '60' } });
      const prose = stdout.split('\nExamples:\n')[0] as string;
      const long = prose.split('\n').filter((line) => line.length > 60);
      expect(long, args.join(' ')).toEqual([]);
    }
  });

  it('an unknown command is one line on stderr with a suggestion, exit 2', async () => {
    const result = await svc(['help', 'projcts'], { env });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe("svc: error: unknown command 'projcts' (Did you mean projects?)\n");
  });
});
