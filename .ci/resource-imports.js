// Fails when a sandbox resource imports a value (a function, a constant) from another resource: resources
// reach each other through ports (src/sandbox/engine/ports.ts) and entities (src/sandbox/entities/), so
// each keeps its store to itself (src/sandbox/README.md, "Adding a resource"). Type imports are free, and
// so are the modules that mount nothing. `npm run lint` runs it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const RESOURCES = join(new URL('..', import.meta.url).pathname, 'src/sandbox/resources');
const MOUNT = /^export function (mount[A-Z]\w*)\(\s*[^)]*:\s*Mounts\s*\)/m;

/** A resource split over files is one resource: the importing file → the halves it may import. */
const SAME_RESOURCE = {
  'group-writes.ts': ['groups.ts'],
  'hook-deliveries.ts': ['hooks.ts'],
  'issue-by-id.ts': ['issues.ts'],
  'issue-move.ts': ['issues.ts'],
  'member-writes.ts': ['members.ts'],
  'merge-request-actions.ts': ['merge-request-auto-merge.ts'],
  'merge-requests.ts': ['merge-request-auto-merge.ts'],
  'snippet-notes.ts': ['project-snippets.ts'],
  'user-writes.ts': ['users.ts'],
};

const IMPORT = /^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'\.\/([\w-]+)\.js';/gm;

/** The value names a clause brings in: everything not marked `type`. */
function valueNames(clause) {
  const braces = /\{([^}]*)\}/.exec(clause);
  const named = braces
    ? braces[1]
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '))
    : [];
  const outside = (braces ? clause.replace(braces[0], '') : clause)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [...outside, ...named];
}

const files = readdirSync(RESOURCES).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
const resources = new Set(files.filter((file) => MOUNT.test(readFileSync(join(RESOURCES, file), 'utf8'))));
const found = [];
for (const file of resources) {
  const text = readFileSync(join(RESOURCES, file), 'utf8');
  for (const [, typeOnly, clause, target] of text.matchAll(IMPORT)) {
    const from = `${target}.ts`;
    if (typeOnly || from === file || !resources.has(from) || SAME_RESOURCE[file]?.includes(from)) continue;
    const names = valueNames(clause);
    if (names.length > 0)
      found.push(`src/sandbox/resources/${file} imports ${names.join(', ')} from resource ${from}: ask a port or use an entity`);
  }
}
for (const line of found) console.error(line);
process.exit(found.length > 0 ? 1 : 0);
