// Shared helpers: character classes, bounded context windows.

export function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isAsciiAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isAsciiAlnum(c: number): boolean {
  return isAsciiDigit(c) || isAsciiAlpha(c);
}

/** Letter or digit in any script (cheap ASCII path first). */
export function isWordChar(c: number): boolean {
  if (c < 128) return isAsciiAlnum(c) || c === 95;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return /[\p{L}\p{N}]/u.test(String.fromCharCode(c));
}

/** True when `text[start-1]` and `text[end]` are not word characters. */
export function atWordBoundary(text: string, start: number, end: number): boolean {
  return (start === 0 || !isWordChar(text.charCodeAt(start - 1))) && (end >= text.length || !isWordChar(text.charCodeAt(end)));
}

/** Lower-cased window of at most `before` chars ending at `start`. */
export function windowBefore(text: string, start: number, before = 48): string {
  return text.slice(Math.max(0, start - before), start).toLowerCase();
}

export function windowAfter(text: string, end: number, after = 24): string {
  return text.slice(end, Math.min(text.length, end + after)).toLowerCase();
}

/** Does any keyword occur within the bounded window before (or just after) the span? */
export function hasContext(text: string, start: number, end: number, words: readonly string[], before = 48, after = 0): boolean {
  if (words.length === 0) return false;
  const w = windowBefore(text, start, before) + (after > 0 ? " " + windowAfter(text, end, after) : "");
  for (const k of words) if (w.includes(k)) return true;
  return false;
}

/** The span is essentially the whole text (a bare field value), allowing surrounding quotes/space/punctuation. */
export function isStandalone(text: string, start: number, end: number): boolean {
  if (text.length - (end - start) > 6) return false;
  const rest = text.slice(0, start) + text.slice(end);
  return /^[\s"'`.,;:()[\]{}]*$/.test(rest);
}

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}
