import type { Context } from '../../context.js';
import { createSnippet, type CreateSnippetInput } from '../../api/snippets.js';
import type { Snippet } from '../../api/types.js';
import { ExitCode, InterruptedError, SvcError, UsageError } from '../../errors.js';
import { intOption } from '../../cli/parsers.js';
import { defineCommand } from '../../cli/spec.js';
import { readLocalFile } from '../shared/local-file.js';
import { shellQuote } from '../../workflows/shared/shell.js';
import { captchaChallenge, promptCaptchaResponse } from './shared/captcha.js';
import { snippetText } from './shared/content.js';
import { writeResult } from '../shared/outcome.js';

const SNIPPET_FIELDS = ['id', 'title', 'file_name', 'visibility', 'web_url'];

interface CreateOptions {
  title: string;
  fileName: string;
  content?: string;
  contentFile?: string;
  description?: string;
  visibility?: string;
  captchaResponse?: string;
  spamLogId?: number;
}

export const CREATE = defineCommand<CreateOptions>({
  name: 'create',
  description: 'Create a personal snippet from --content, --content-file or stdin',
  options: [
    { flags: '--title <title>', help: 'snippet title', required: true },
    { flags: '--file-name <name>', help: 'file name shown for the content (also picks the highlighting)', required: true },
    { flags: '--content <text>', help: 'the content' },
    { flags: '--content-file <path>', help: 'read the content from a file' },
    { flags: '--description <text>', help: 'snippet description' },
    { flags: '--visibility <level>', help: 'who can see it (service default: internal)', choices: ['public', 'internal', 'private'] },
    { flags: '--captcha-response <response>', help: 'answer to the CAPTCHA the service asked for (with --spam-log-id)' },
    { flags: '--spam-log-id <id>', help: 'spam log id the service gave with the CAPTCHA request', parse: intOption('--spam-log-id', 1) },
  ],
  notes:
    'When the service flags the content as spam and asks for a CAPTCHA, svc prints the site key, the spam log id ' +
    'and the command to resubmit, and exits 9; on a terminal it offers to paste the response and resubmits. ' +
    'Flagged as spam without a CAPTCHA: exit 6.',
  examples: [
    'svc snippets create --title "nginx conf" --file-name nginx.conf --content-file ./nginx.conf --visibility internal',
    'kubectl get pods -o yaml | svc snippets create --title pods --file-name pods.yaml',
    'svc snippets create --title t --file-name a.txt --content-file a.txt --captcha-response 03AGdB... --spam-log-id 42',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
});

async function run(ctx: Context, opts: CreateOptions): Promise<void> {
  if ((opts.captchaResponse === undefined) !== (opts.spamLogId === undefined)) {
    throw new UsageError('--captcha-response and --spam-log-id go together');
  }
  const input: CreateSnippetInput = {
    title: opts.title,
    fileName: opts.fileName,
    content: await snippetContent(ctx, opts),
    visibility: opts.visibility,
    description: opts.description,
    captcha: opts.captchaResponse === undefined ? undefined : { response: opts.captchaResponse, spamLogId: opts.spamLogId as number },
  };
  const http = await ctx.http({ requireToken: true });
  let snippet: Snippet;
  try {
    snippet = await createSnippet(http, input);
  } catch (error) {
    const challenge = captchaChallenge(error);
    if (!challenge) throw error;
    const answer = ctx.interactive && ctx.io.isTTY.stdin ? await promptCaptchaResponse(ctx, challenge).catch(interrupted) : '';
    if (!answer) {
      ctx.io.stderr.write(
        `The service flagged this snippet as spam: solve the CAPTCHA (reCAPTCHA v2, site key ${challenge.captcha_site_key}) ` +
          `and resubmit with spam log id ${challenge.spam_log_id}:\n  ${resubmitCommand(opts, challenge.spam_log_id)}\n`,
      );
      throw new SvcError(
        `CAPTCHA required (spam log id ${challenge.spam_log_id}, site key ${challenge.captcha_site_key})`,
        ExitCode.captcha,
      );
    }
    snippet = await createSnippet(http, { ...input, captcha: { response: answer, spamLogId: challenge.spam_log_id } });
  }
  await writeResult(ctx, snippet, SNIPPET_FIELDS);
}

async function snippetContent(ctx: Context, opts: CreateOptions): Promise<string> {
  if (opts.content !== undefined && opts.contentFile !== undefined) {
    throw new UsageError('give either --content or --content-file, not both');
  }
  if (opts.content !== undefined) return nonBlank(opts.content, '--content is empty');
  if (opts.contentFile !== undefined) {
    const text = snippetText(await readLocalFile('--content-file', opts.contentFile, ctx.signal), `--content-file ${opts.contentFile}`);
    return nonBlank(text, `--content-file ${opts.contentFile} is empty`);
  }
  if (ctx.io.isTTY.stdin) throw new UsageError(NO_CONTENT);
  return nonBlank(snippetText(await ctx.readStdin(), 'stdin'), `nothing on stdin; ${NO_CONTENT}`);
}

const NO_CONTENT = 'no content: give --content, --content-file, or pipe it on stdin';

/** The service would store an empty snippet; an empty source is almost always a mistake in the pipe. */
function nonBlank(content: string, problem: string): string {
  if (!content.trim()) throw new UsageError(problem);
  return content;
}

/** The same command with the CAPTCHA answer added; content read from stdin must be piped again. */
export function resubmitCommand(opts: CreateOptions, spamLogId: number): string {
  const words = ['svc', 'snippets', 'create', '--title', opts.title, '--file-name', opts.fileName];
  if (opts.content !== undefined) words.push('--content', opts.content);
  if (opts.contentFile !== undefined) words.push('--content-file', opts.contentFile);
  if (opts.description !== undefined) words.push('--description', opts.description);
  if (opts.visibility !== undefined) words.push('--visibility', opts.visibility);
  const command = `${words.map(shellQuote).join(' ')} --captcha-response RESPONSE --spam-log-id ${spamLogId}`;
  return opts.content === undefined && opts.contentFile === undefined ? `${command} < (the same content)` : command;
}

function interrupted(): never {
  throw new InterruptedError('interrupted; the snippet was not created');
}
