import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, IncompleteError } from '../../errors.js';
import type { HttpClient } from '../../http/client.js';
import { writeList } from '../../output/writer.js';
import { listContainersOnStorage } from '../../api/storage-containers.js';
import { listStorageMoves, moveContainer, ON_DESTINATION_STATES, type MoveKind } from '../../api/storage-moves.js';
import { withExamples, type Runtime } from '../../runtime.js';
import { checkStorages, explainForbidden, KIND_NAMES, kindOption, parseSince, preflight, probeKinds, toAsync } from './options.js';

interface VerifyOptions {
  from: string;
  kind: MoveKind[];
  since?: string;
}

interface Remaining {
  kind: string;
  id: number;
  name: string;
  reason: string;
}

export function register(parent: Command, runtime: Runtime): void {
  const command = parent
    .command('verify')
    .description('Check that nothing remains on a storage: exit 0 if so, else 8 and list what remains')
    .requiredOption('--from <storage>', 'the storage that should be empty')
    .addOption(kindOption('all'))
    .option('--since <time>', 'where a kind cannot be listed by storage, read its moves back to this time only', parseSince);
  withExamples(command, ['svc storage-move verify --from default', 'svc storage-move verify --from default --kind projects -o json']);
  command.action(runtime.action<VerifyOptions>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: VerifyOptions): Promise<number> {
  checkStorages(opts.from, undefined, false);
  const http = await ctx.http({ requireToken: true });
  await preflight(http, [opts.from]);
  const probes = await probeKinds(ctx, http, opts.kind);
  const remaining: Remaining[] = [];
  for (const { kind } of probes) {
    const listing = await listContainersOnStorage(http, kind, opts.from).catch(explainForbidden);
    if (listing) {
      remaining.push(...listing.containers.map((c) => ({ kind: KIND_NAMES[kind], id: c.id, name: c.label, reason: 'on source' })));
    } else {
      ctx.info(`${KIND_NAMES[kind]}: cannot be listed by storage on this instance; checking their latest moves instead`);
      remaining.push(...(await unmovedByHistory(http, kind, opts.from, opts.since)));
    }
  }
  await writeList(ctx.stdout, ctx.output, toAsync(remaining), ['kind', 'id', 'name', 'reason']);
  if (remaining.length) throw new IncompleteError(`${remaining.length} repositories remain on ${opts.from}`);
  ctx.info(`nothing remains on ${opts.from}`);
  return ExitCode.ok;
}

/**
 * Without a listing by storage, a container is known to be on the source when its newest move
 * ended there, or left from there without reaching the destination (failed or still running).
 */
async function unmovedByHistory(http: HttpClient, kind: MoveKind, source: string, since: string | undefined): Promise<Remaining[]> {
  const sinceMs = since === undefined ? undefined : Date.parse(since);
  const seen = new Set<number>();
  const out: Remaining[] = [];
  for await (const page of listStorageMoves(http, kind, { perPage: 100 })) {
    for (const move of page.items) {
      if (sinceMs !== undefined && Date.parse(move.created_at) < sinceMs) return out;
      const ref = moveContainer(move);
      if (!ref || seen.has(ref.id)) continue;
      seen.add(ref.id);
      const landed = ON_DESTINATION_STATES.has(move.state);
      const onSource = landed ? move.destination_storage_name === source : move.source_storage_name === source;
      if (onSource) out.push({ kind: KIND_NAMES[kind], id: ref.id, name: ref.label, reason: `move ${move.id} ${move.state}` });
    }
  }
  return out;
}
