// Terminal columns a string takes: combining marks and format characters take none, East Asian wide
// and fullwidth characters and emoji two, the rest one. Control characters never get here (escaped).
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}]/u;
const WIDE =
  /[\p{Emoji_Presentation}\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;

export const ELLIPSIS = '…';

function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  if (ASCII_PRINTABLE.test(text)) return text.length;
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** `text` cut to at most `max` columns, ending in `…` when anything was cut. */
export function truncateToWidth(text: string, max: number): string {
  if (ASCII_PRINTABLE.test(text)) {
    if (text.length <= max) return text;
    return max <= 0 ? '' : `${text.slice(0, max - 1)}${ELLIPSIS}`;
  }
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  let kept = '';
  let width = 0;
  for (const char of text) {
    const next = charWidth(char);
    if (width + next > max - 1) break;
    kept += char;
    width += next;
  }
  return `${kept}${ELLIPSIS}`;
}
