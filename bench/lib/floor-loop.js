// The loop both bare keep-alive floors share: keyset by id (newest first, 100 per page, as
// `svc projects list --all` asks), following Link rel="next"; each page printed as NDJSON in one write.
const NEXT = /<([^>]+)>;\s*rel="next"/;

function write(text) {
  return new Promise((resolve) => (process.stdout.write(text) ? resolve() : process.stdout.once('drain', resolve)));
}

/** `fetchPage(url)` resolves to the page's parsed records and its Link header. */
export async function printEveryProject(base, fetchPage) {
  let next = `${base}/api/v4/projects?per_page=100&pagination=keyset&order_by=id&sort=desc`;
  while (next) {
    const { records, link } = await fetchPage(next);
    let text = '';
    for (const record of records) text += `${JSON.stringify(record)}\n`;
    if (text) await write(text);
    next = records.length ? NEXT.exec(link ?? '')?.[1] : undefined;
  }
}
