import { resolve } from 'node:path';
import { downloadArchive } from '../../api/repository.js';
import { defineCommand } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { PROJECT_ARGUMENT, projectRef, requiredTextParser } from '../shared/args.js';
import { contentLength, downloadTo, transfer } from '../shared/download.js';
import { formatBytes } from '../shared/progress.js';

const FORMATS = ['tar.gz', 'zip', 'tar', 'tar.bz2'];

interface ArchiveOptions {
  ref?: string;
  format: string;
  out: string;
  force?: boolean;
}

/** The archive's name as the service gives it: `<project>-<ref>-<sha>.<format>`. */
function servedName(headers: Record<string, string>): string | undefined {
  return /filename="([^"]+)"/.exec(headers['content-disposition'] ?? '')?.[1];
}

export const ARCHIVE = defineCommand<ArchiveOptions>({
  name: 'archive',
  description: "Download a ref's files as an archive, atomically (never a half-written file under the final name)",
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--ref <ref>', help: 'the branch, tag or commit (default: the default branch)', parse: requiredTextParser('--ref') },
    { flags: '--format <format>', help: 'the kind of archive', choices: FORMATS, default: 'tar.gz' },
    { flags: '--out <file>', help: 'where to save it; - for stdout', required: true },
    { flags: '--force', help: 'replace the file if it exists' },
  ],
  notes:
    'Every file sits in one folder named <project>-<ref>-<sha>, as the service makes it. An unknown ref exits 5 ' +
    '(the service answers 404 File Not Found). The service streams archives without a Content-Length; when it sends ' +
    'one, a shorter download fails and leaves nothing. The sandbox (svc sandbox) makes no tar.bz2 archives: it has no ' +
    'bzip2 encoder and answers 404 File Not Found, as the service does when it cannot make one.',
  examples: [
    'svc repo archive acme/platform/api --ref v1.2.0 --out api-1.2.0.tar.gz',
    'svc repo archive 42 --format zip --out - | bsdtar -tf -',
  ],
  async run(ctx, [project], opts) {
    const fetch = async () => downloadArchive(await ctx.http(), project as string, opts.format, opts.ref);
    if (opts.out === '-') {
      if (ctx.io.isTTY.stdout) throw new UsageError('--out -: refusing to write an archive to a terminal; redirect stdout or give a file');
      const res = await fetch();
      await transfer(ctx, res.data, contentLength(res.headers), 'archive', ctx.stdout, false);
      return;
    }
    const target = resolve(opts.out);
    const { size, headers } = await downloadTo(ctx, target, { force: Boolean(opts.force), flag: '--out ' }, fetch);
    const name = servedName(headers);
    ctx.info(`saved ${target} (${formatBytes(size)})${name ? `: ${name}` : ''}`);
    if (ctx.globals.output) await ctx.printRecord({ file: target, size, name: name ?? null }, ['file', 'size', 'name']);
  },
});
