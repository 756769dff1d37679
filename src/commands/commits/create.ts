import { createCommit, type CommitAction } from '../../api/repository.js';
import { defineCommand } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { PROJECT_ARGUMENT, projectRef, requiredText, requiredTextParser } from '../shared/args.js';
import { parseAssignment } from '../shared/assignment.js';
import { readLocalFile } from '../shared/local-file.js';
import { writeResult } from '../shared/outcome.js';

/** One action as typed: which flag, where it stands on the command line, and what it names. */
interface Step {
  flag: string;
  order: number;
  action: CommitAction['action'];
  path: string;
  /** --move: the old path */
  from?: string;
  /** --add, --update: the local file holding the content (`-`: stdin) */
  file?: string;
  /** --chmod: executable or not */
  executable?: boolean;
}

interface CreateOptions {
  branch: string;
  startBranch?: string;
  message: string;
  add?: Step[];
  update?: Step[];
  delete?: Step[];
  move?: Step[];
  chmod?: Step[];
}

// Commander keeps each flag's values apart; the sequence number keeps the order they were typed in across flags.
let typed = 0;

function repoPath(flag: string, value: string): string {
  const path = requiredText(flag, value);
  if (path.split('/').includes('..')) throw new UsageError(`${flag} ${value}: a path in the repository cannot hold '..'`);
  return path;
}

function step(flag: string, action: Step['action'], read: (value: string) => Omit<Step, 'flag' | 'order' | 'action'>) {
  return (value: string, previous: unknown): Step[] => [
    ...((previous as Step[] | undefined) ?? []),
    { flag, order: ++typed, action, ...read(value) },
  ];
}

function withContent(flag: string) {
  return (value: string) => {
    const [path, source] = parseAssignment(flag, value, '@FILE');
    if (!source.startsWith('@') || source.length === 1) {
      throw new UsageError(`${flag} '${value}': expected PATH=@FILE (a local file, or @- for stdin)`);
    }
    return { path: repoPath(flag, path), file: source.slice(1) };
  };
}

function moved(value: string) {
  const [from, to] = parseAssignment('--move', value, 'NEW');
  return { from: repoPath('--move', from), path: repoPath('--move', to) };
}

function mode(value: string) {
  const [path, flag] = parseAssignment('--chmod', value, '+x');
  if (flag !== '+x' && flag !== '-x') throw new UsageError(`--chmod '${value}': expected PATH=+x or PATH=-x`);
  return { path: repoPath('--chmod', path), executable: flag === '+x' };
}

/** Text the service stores as sent; bytes that are not UTF-8 go as base64 so they arrive unchanged. */
function encoded(content: Buffer): Pick<CommitAction, 'content' | 'encoding'> {
  try {
    return { content: new TextDecoder('utf-8', { fatal: true }).decode(content), encoding: 'text' };
  } catch {
    return { content: content.toString('base64'), encoding: 'base64' };
  }
}

/** Nothing on stdin (closed, or nothing piped in) is a mistake, not an empty file: that one is `@/dev/null`. */
async function stdinContent(ctx: Context, s: Step): Promise<Buffer> {
  const content = await ctx.readStdin();
  if (content.length === 0)
    throw new UsageError(`${s.flag} ${s.path}=@-: stdin is empty; pipe the content in, or give PATH=@FILE (@/dev/null for an empty file)`);
  return content;
}

async function toActions(ctx: Context, steps: Step[]): Promise<CommitAction[]> {
  if (steps.filter((s) => s.file === '-').length > 1) throw new UsageError('stdin (@-) can give the content of one file only');
  const actions: CommitAction[] = [];
  for (const s of steps) {
    const base = { action: s.action, file_path: s.path };
    if (s.action === 'move') actions.push({ ...base, previous_path: s.from! });
    else if (s.action === 'chmod') actions.push({ ...base, execute_filemode: s.executable! });
    else if (s.file === undefined) actions.push(base);
    else {
      const content = s.file === '-' ? await stdinContent(ctx, s) : await readLocalFile(s.flag, s.file, ctx.signal);
      actions.push({ ...base, ...encoded(content) });
    }
  }
  return actions;
}

export const CREATE = defineCommand<CreateOptions>({
  name: 'create',
  description: 'Commit several file changes to a branch as one commit, applied in the order given, all or none',
  args: [{ name: 'project', help: PROJECT_ARGUMENT, parse: projectRef }],
  options: [
    { flags: '--branch <branch>', help: 'the branch to commit to', parse: requiredTextParser('--branch'), required: true },
    {
      flags: '--start-branch <branch>',
      help: 'create --branch from this branch with the commit (--branch must not exist yet)',
      parse: requiredTextParser('--start-branch'),
    },
    { flags: '--message <text>', help: 'the commit message', parse: requiredTextParser('--message'), required: true },
    {
      flags: '--add <path=@file>',
      help: "add a file with a local file's content (@- for stdin); repeatable",
      parse: step('--add', 'create', withContent('--add')),
    },
    {
      flags: '--update <path=@file>',
      help: "replace a file's content with a local file's (@- for stdin); repeatable",
      parse: step('--update', 'update', withContent('--update')),
    },
    {
      flags: '--delete <path>',
      help: 'delete a file; repeatable',
      parse: step('--delete', 'delete', (v) => ({ path: repoPath('--delete', v) })),
    },
    { flags: '--move <old=new>', help: 'move or rename a file, keeping its content; repeatable', parse: step('--move', 'move', moved) },
    { flags: '--chmod <path=+x|-x>', help: 'make a file executable (+x) or not (-x); repeatable', parse: step('--chmod', 'chmod', mode) },
  ],
  notes:
    'Actions go in the order typed. A file that is not UTF-8 text is sent as base64, so its bytes arrive unchanged. ' +
    'The service refuses the whole commit (exit 6) when any action cannot apply: adding a file that exists, ' +
    'changing one that does not. Committing needs the developer role, and a protected branch a role its rules let push (exit 4).',
  examples: [
    'svc commits create acme/platform/api --branch main --message "Update the generated client" --update src/client.ts=@build/client.ts --add docs/api.md=@build/api.md',
    'svc commits create 42 --branch bot/assets --start-branch main --message "New logo" --add assets/logo.png=@logo.png --delete assets/old.png',
    'generate-changelog | svc commits create 42 --branch main --message "Changelog" --update CHANGELOG.md=@- --move docs/a.md=docs/b.md',
  ],
  async run(ctx, [project], opts) {
    const steps = [...(opts.add ?? []), ...(opts.update ?? []), ...(opts.delete ?? []), ...(opts.move ?? []), ...(opts.chmod ?? [])];
    if (steps.length === 0) throw new UsageError('nothing to commit: give at least one --add, --update, --delete, --move or --chmod');
    steps.sort((a, b) => a.order - b.order);
    const actions = await toActions(ctx, steps);
    const http = await ctx.http({ requireToken: true });
    const commit = await createCommit(http, project as string, {
      branch: opts.branch,
      start_branch: opts.startBranch,
      commit_message: opts.message,
      actions,
    });
    const stats = commit.stats ? ` (+${commit.stats.additions} -${commit.stats.deletions})` : '';
    ctx.info(`committed ${commit.short_id} to ${opts.branch}: ${commit.title}${stats}`);
    await writeResult(ctx, commit, ['id', 'short_id', 'title', 'web_url']);
  },
});
