/** Secrets shorter than this are not redacted: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4;

/**
 * Hides every secret in `text`, as sent and as a server may echo it: URL-encoded, and in any
 * letter case (a header or proxy that upper- or lower-cases what it repeats).
 */
export function redactSecrets(text: string, secrets: Array<string | undefined>): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  if (forms.size === 0) return text;
  // Longest first, so that a secret containing another is hidden whole.
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return text.replace(new RegExp(alternatives.join('|'), 'gi'), '[redacted]');
}
