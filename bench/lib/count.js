import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Counts the projects a client printed, and how many distinct ids among them. Accepts one JSON
 * array per line (the floor's pages), one object per line (ndjson) or one JSON document
 * spread over many lines (the peers' arrays).
 */
export async function countProjects(file) {
  if (statSync(file).size === 0) return { records: 0, distinct: 0 };
  const ids = new Set();
  let records = 0;
  const add = (value) => {
    for (const item of Array.isArray(value) ? value : [value]) {
      records++;
      ids.add(item?.id);
    }
  };
  let document = '';
  let inDocument = false;
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (inDocument) {
      document += `${line}\n`;
      continue;
    }
    if (!line.trim()) continue;
    try {
      add(JSON.parse(line));
    } catch {
      inDocument = true;
      document = `${line}\n`;
    }
  }
  if (inDocument) {
    try {
      add(JSON.parse(document));
    } catch {
      return { records, distinct: ids.size, malformed: true };
    }
  }
  return { records, distinct: ids.size };
}
