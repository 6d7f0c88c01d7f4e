// Character classes over UTF-16 code units, named so that the detectors' scanning loops read as rules
// ("an ASCII letter", "one of , ; : ( newline quote") rather than as numbers. Each is a comparison or
// one table lookup: the scanning loops call them per character.

export function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export function isAsciiUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

export function isAsciiLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

export function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** An ASCII capital lower-cased, as toLowerCase() does; every other code unit as it is. */
export function lowerAscii(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c;
}

/** JavaScript's \s. */
export function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A small table-driven matcher: a set of ASCII characters, tested by one lookup.
 * `asciiSet(",;:(\n\" \t").has(c)` reads as the character class it is.
 */
export class AsciiSet {
  private readonly table = new Uint8Array(128);
  constructor(chars: string) {
    for (let i = 0; i < chars.length; i++) {
      const c = chars.charCodeAt(i);
      if (c >= 128) throw new RangeError(`not ASCII: ${chars[i]}`);
      this.table[c] = 1;
    }
  }
  has(c: number): boolean {
    return c < 128 && this.table[c] === 1;
  }
}

export function asciiSet(chars: string): AsciiSet {
  return new AsciiSet(chars);
}

/** Code unit of a one-character string, for comparisons that name the character (`c === code("-")`). */
export function code(ch: string): number {
  return ch.charCodeAt(0);
}

// Named code units used by the scanning loops.
export const TAB = 9;
export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const QUOTE = 34; // "
export const PERCENT = 37;
export const APOSTROPHE = 39; // '
export const OPEN_PAREN = 40;
export const CLOSE_PAREN = 41;
export const PLUS = 43;
export const COMMA = 44;
export const HYPHEN = 45;
export const DOT = 46;
export const DIGIT_0 = 48;
export const DIGIT_1 = 49;
export const DIGIT_2 = 50;
export const DIGIT_9 = 57;
export const COLON = 58;
export const SEMICOLON = 59;
export const EQUALS = 61;
export const GREATER = 62;
export const AT = 64;
export const CLOSE_BRACKET = 93;
export const UNDERSCORE = 95;
export const BACKTICK = 96;
export const CLOSE_BRACE = 125;
