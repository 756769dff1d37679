/** Parses an RFC 8288 `Link` header into a map of relation → URL. */
export function parseLinkHeader(header: string | null | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,]+)*)/g;
  for (const match of header.matchAll(pattern)) {
    const url = match[1] ?? '';
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(params);
    const names = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean);
    for (const name of names) {
      if (!(name in links)) links[name.toLowerCase()] = url;
    }
  }
  return links;
}
