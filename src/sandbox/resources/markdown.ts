// `POST /markdown` (lib/api/markdown.rb): `text` required, `gfm` and `project` optional; callers must be
// signed in (since 15.3); `project` names a project the caller can read, else `404 Project Not Found`;
// answers 201 `{"html": …}`. The sandbox renders a subset of Markdown: ATX headings, paragraphs,
// `**strong**`, `*emphasis*`, `` `code` `` and `[links](url)`; with `gfm` each block carries the service's
// `data-sourcepos` and `dir="auto"` (README, "Markdown").
import { offer } from '../engine/ports.js';
import { canReadProject } from '../access.js';
import { E } from '../server/errors.js';
import { boolParam, strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import { escapeHtml } from '../util/html.js';
import type { Mounts } from './mounts.js';

function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

interface Block {
  first: number;
  last: number;
  lines: string[];
}

function blocks(text: string): Block[] {
  const out: Block[] = [];
  let current: Block | null = null;
  text.split('\n').forEach((line, i) => {
    const heading = /^#{1,6} /.test(line);
    if (line.trim() === '' || heading) current = null;
    if (line.trim() === '') return;
    if (!current) {
      current = { first: i + 1, last: i + 1, lines: [] };
      out.push(current);
    }
    current.lines.push(line);
    current.last = i + 1;
    if (heading) current = null;
  });
  return out;
}

function renderMarkdown(text: string, gfm: boolean): string {
  return blocks(text)
    .map((b) => {
      const attrs = gfm ? ` data-sourcepos="${b.first}:1-${b.last}:${b.lines.at(-1)!.length}" dir="auto"` : '';
      const heading = /^(#{1,6}) (.*)$/.exec(b.lines[0]!);
      if (heading) {
        const level = heading[1]!.length;
        return `<h${level}${attrs}>${inline(heading[2]!.trim())}</h${level}>`;
      }
      return `<p${attrs}>${b.lines.map(inline).join('\n')}</p>`;
    })
    .join('\n');
}

export function mountMarkdown({ root }: Mounts): void {
  offer('renderMarkdown', renderMarkdown);
  root.post('/markdown', { auth: 'user' }, (ctx) => {
    const text = strParam(ctx, 'text');
    if (text === undefined) throw E.missing('text');
    const path = strParam(ctx, 'project');
    if (path !== undefined) {
      const w = ctx.world;
      const project = w.findProject(path);
      if (!project || !canReadProject(w, ctx.user, project)) throw E.notFound('Project');
    }
    sendJson(ctx, 201, { html: renderMarkdown(text, boolParam(ctx, 'gfm') ?? false) });
  });
}
