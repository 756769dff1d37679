/** A GitHub-flavoured markdown table; numbers already formatted by the caller. */
export function markdownTable(headers, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

export function ms(value) {
  if (!Number.isFinite(value)) return 'n/a';
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

export function mb(value) {
  return Number.isFinite(value) ? `${Math.round(value)} MB` : 'n/a';
}

/** CPU time spread over the records listed: what each record costs, start-up included. */
export function perRecord(cpuMs, records) {
  return Number.isFinite(cpuMs) ? `${((cpuMs * 1000) / records).toFixed(1)} µs` : 'n/a';
}

export function ratio(value) {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

export function verdict(met) {
  return met ? 'met' : 'MISSED';
}
