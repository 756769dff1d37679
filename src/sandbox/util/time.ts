/** ISO 8601 with milliseconds and Z, as the real service renders timestamps. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
