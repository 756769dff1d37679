import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { getRelease } from '../../api/releases.js';
import { downloadArchive } from '../../api/repository.js';
import { listOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { IncompleteError, UsageError } from '../../errors.js';
import type { ApiResponse } from '../../http/client.js';
import { describeFsError } from '../shared/local-file.js';
import { downloadTo } from '../shared/download.js';
import { formatBytes } from '../shared/progress.js';
import { PROJECT_ARG, TAG_ARG } from './shared/options.js';

const SOURCE_FORMATS = ['tar.gz', 'zip', 'tar', 'tar.bz2'];

interface DownloadOptions {
  dir: string;
  sources: string[];
  force?: boolean;
}

interface ReleaseAssets {
  assets?: {
    links?: Array<{ name: string; url: string }>;
    sources?: Array<{ format: string; url: string }>;
  };
}

/** One file to fetch: the name it gets in the directory and how to get it. */
interface Asset {
  name: string;
  fetch: () => Promise<ApiResponse<Readable>>;
}

interface Outcome {
  name: string;
  file: string | null;
  size: number | null;
  error: string | null;
}

/** A name the directory can take as given: one plain file name, nothing that climbs out of it or hides. */
function unsafeName(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return 'not a file name';
  if (/[/\\]/.test(name)) return 'a path, not a file name';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'holds control characters';
  if (name.startsWith('.')) return 'would be a hidden file';
  return undefined;
}

function sourceFormats(value: string): string[] {
  const formats = listOption('--sources')(value);
  if (formats.length === 1 && formats[0] === 'none') return [];
  const unknown = formats.filter((f) => !SOURCE_FORMATS.includes(f));
  if (unknown.length > 0) throw new UsageError(`--sources ${value}: give formats among ${SOURCE_FORMATS.join(', ')}, or none`);
  return formats;
}

export const DOWNLOAD = defineCommand<DownloadOptions>({
  name: 'download',
  description: "Download a release's asset links and its source archives into a directory, each file written atomically",
  args: [PROJECT_ARG, TAG_ARG],
  options: [
    { flags: '--dir <dir>', help: 'the directory to save into (made if missing)', required: true },
    {
      flags: '--sources <formats>',
      help: `source archives to fetch, comma-separated (${SOURCE_FORMATS.join(', ')}), or none`,
      parse: sourceFormats,
      default: ['tar.gz'],
      defaultText: 'tar.gz',
    },
    { flags: '--force', help: 'replace files that exist' },
  ],
  notes:
    'Each asset link is saved under its name, the source archives as <project>-<tag>.<format>. A name that is not one plain ' +
    'file name (../x, a/b, .hidden) is refused, not cleaned up. The token goes with a link only when it points into ' +
    "this instance's API; other hosts get no credentials. A file's size is checked against the Content-Length its " +
    'server sends. Exit 8 when any file failed, naming each; the others are saved. The sandbox (svc sandbox) makes ' +
    'no tar.bz2 source archives (no bzip2 encoder): that file fails with 404.',
  examples: [
    'svc releases download acme/platform/api v1.2.0 --dir dist/',
    'svc releases download $CI_PROJECT_ID $CI_COMMIT_TAG --dir release --sources zip,tar.gz --force',
  ],
  async run(ctx, [project, tag], opts) {
    const http = await ctx.http();
    const { assets: listed } = (await getRelease(http, project as string, tag as string)) as ReleaseAssets;
    // The name the release gives each source archive (<project>-<tag>.<format>), fetched through the API.
    const sourceName = (format: string) => {
      const url = listed?.sources?.find((s) => s.format === format)?.url;
      return url === undefined ? `${String(tag)}.${format}` : decodeURIComponent(url.split('/').pop()!);
    };
    const assets: Asset[] = [
      ...(listed?.links ?? []).map((l) => ({
        name: l.name,
        // The link itself: its direct asset URL is a web route that only redirects there, and takes no token.
        fetch: () => http.fetchLink<Readable>(l.url, { responseType: 'stream' }),
      })),
      ...opts.sources.map((format) => ({
        name: sourceName(format).replaceAll('/', '-'),
        fetch: () => downloadArchive(http, project as string, format, tag as string),
      })),
    ];
    const dir = resolve(opts.dir);
    await mkdir(dir, { recursive: true }).catch((error: unknown) => {
      throw new UsageError(`--dir ${opts.dir}: ${describeFsError(error)}`);
    });
    const outcomes: Outcome[] = [];
    const taken = new Set<string>();
    for (const asset of assets) {
      const refusal = unsafeName(asset.name) ?? (taken.has(asset.name) ? 'a name an earlier asset has' : undefined);
      taken.add(asset.name);
      if (refusal) {
        outcomes.push({ name: asset.name, file: null, size: null, error: `refusing the name: ${refusal}` });
        continue;
      }
      const file = join(dir, asset.name);
      try {
        const { size } = await downloadTo(
          ctx,
          file,
          { force: Boolean(opts.force), flag: '', otherwise: '--dir another directory' },
          asset.fetch,
        );
        outcomes.push({ name: asset.name, file, size, error: null });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        outcomes.push({ name: asset.name, file: null, size: null, error: error instanceof Error ? error.message : String(error) });
      }
    }
    if (ctx.globals.output) await ctx.printRecord(outcomes, ['name', 'file', 'size', 'error']);
    const saved = outcomes.filter((o) => o.error === null);
    const bytes = saved.reduce((sum, o) => sum + (o.size ?? 0), 0);
    for (const o of outcomes) if (o.error !== null) ctx.warn(`${JSON.stringify(o.name)} failed: ${o.error}`);
    ctx.info(`saved ${saved.length} of ${outcomes.length} files of release ${String(tag)} in ${dir} (${formatBytes(bytes)})`);
    if (saved.length < outcomes.length) {
      throw new IncompleteError(`${outcomes.length - saved.length} of ${outcomes.length} files of release ${String(tag)} failed`);
    }
  },
});
