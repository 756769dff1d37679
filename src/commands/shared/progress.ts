import type { Context } from '../../context.js';
import { terminalSafe } from '../../output/terminal-safe.js';

export interface ByteProgress {
  add(bytes: number): void;
  /** Clears the bar; the caller prints its own closing line. */
  done(): void;
}

const REDRAW_MS = 100;
const BAR_WIDTH = 24;

/** A byte-count bar on stderr for a person at a terminal; nothing at all otherwise. */
export function byteProgress(ctx: Context, label: string, total: number | undefined): ByteProgress {
  if (!ctx.animated) return { add() {}, done() {} };
  const stderr = ctx.io.stderr;
  let seen = 0;
  let drawnAt = 0;
  const draw = () => {
    drawnAt = Date.now();
    stderr.write(`\r\x1b[2K${formatProgress(terminalSafe(label), seen, total)}`);
  };
  draw();
  return {
    add(bytes) {
      seen += bytes;
      if (Date.now() - drawnAt >= REDRAW_MS) draw();
    },
    done() {
      stderr.write('\r\x1b[2K');
    },
  };
}

export function formatProgress(label: string, seen: number, total: number | undefined): string {
  if (!total) return `${label} ${formatBytes(seen)}`;
  const share = Math.min(1, seen / total);
  const filled = Math.round(share * BAR_WIDTH);
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${formatBytes(seen)} of ${formatBytes(total)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
