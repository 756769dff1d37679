import type { ProgressCounts } from './tracker.js';

const number = new Intl.NumberFormat('en-US');

/** `projects 8,412/10,000 finished · 37 started · 2 failed, retrying` */
export function formatProgressLine(name: string, counts: ProgressCounts): string {
  const parts = [`${name} ${number.format(counts.finished)}/${number.format(counts.total)} finished`];
  if (counts.running) parts.push(`${number.format(counts.running)} started`);
  if (counts.waiting) parts.push(`${number.format(counts.waiting)} waiting`);
  if (counts.retrying) parts.push(`${number.format(counts.retrying)} failed, retrying`);
  if (counts.failed) parts.push(`${number.format(counts.failed)} failed`);
  return parts.join(' · ');
}
