import { UsageError } from '../../errors.js';
import { formatCell } from '../../output/format.js';

/** The service's access levels by name (reference endpoints §0); writes take 10–50. */
export const ACCESS_LEVELS: Record<string, number> = {
  guest: 10,
  planner: 15,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
};

/** An access level by name (`developer`) or number (`30`), as the service's number. */
export function accessLevel(flag: string): (value: string) => number {
  return (value) => {
    const text = value.trim().toLowerCase();
    const level = /^\d+$/.test(text) ? Number(text) : ACCESS_LEVELS[text];
    if (level === undefined || !Object.values(ACCESS_LEVELS).includes(level)) {
      const names = Object.entries(ACCESS_LEVELS).map(([name, n]) => `${name} (${n})`);
      throw new UsageError(`${flag} '${value}': expected one of ${names.join(', ')}`);
    }
    return level;
  };
}

/** The name of a level the service reported, or the number when it has none. */
export function accessLevelName(level: number): string {
  return Object.entries(ACCESS_LEVELS).find(([, n]) => n === level)?.[0] ?? String(level);
}

/** A date as the service takes it (YYYY-MM-DD). */
export function isoDate(flag: string): (value: string) => string {
  return (value) => {
    const text = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
      throw new UsageError(`${flag} '${value}': expected a date as YYYY-MM-DD`);
    }
    // Date.parse rolls 2027-02-30 over to 2 March; a date that does not exist is refused here.
    if (new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) !== text) {
      throw new UsageError(`${flag} '${value}': no such date`);
    }
    return text;
  };
}

/** Who a protected branch or tag lets push, merge, unprotect or create: no one (0) and admins (60) besides roles. */
const PROTECTION_LEVELS: Record<string, number> = { 'no-one': 0, developer: 30, maintainer: 40, admin: 60 };

/** A protection level by name (`maintainer`) or number (`40`), as the service's number. */
export function protectionLevel(flag: string): (value: string) => number {
  return (value) => {
    const text = value.trim().toLowerCase();
    const level = /^\d+$/.test(text) ? Number(text) : PROTECTION_LEVELS[text];
    if (level === undefined || !Object.values(PROTECTION_LEVELS).includes(level)) {
      const names = Object.entries(PROTECTION_LEVELS).map(([name, n]) => `${name} (${n})`);
      throw new UsageError(`${flag} '${value}': expected one of ${names.join(', ')}`);
    }
    return level;
  };
}

/** The name of a protection level in a listing (`40` → `maintainer`). */
function protectionLevelName(level: number): string {
  return Object.entries(PROTECTION_LEVELS).find(([, n]) => n === level)?.[0] ?? String(level);
}

/**
 * A rule's list of who may act (`[{access_level: 40}, {access_level: 30}]` → `maintainer,developer`),
 * `-` when it lists nobody. A list the service did not send as one, or an entry without a numeric
 * level, is shown as it came rather than taken apart.
 */
export function protectionLevelsCell(value: unknown): string {
  if (!Array.isArray(value)) return formatCell(value);
  const names = value.map((entry: unknown) => {
    const level = entry !== null && typeof entry === 'object' ? (entry as { access_level?: unknown }).access_level : undefined;
    return typeof level === 'number' ? protectionLevelName(level) : formatCell(entry);
  });
  return names.join(',') || '-';
}
