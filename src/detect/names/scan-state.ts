// The candidate scan's types (candidates.ts), apart so that the rule files it calls (anchors.ts,
// countries.ts) name them without importing the scan that imports them.

/** Candidate starts of the rules (see execAt, each list ascending) and what the rules need to know about the text. */
export interface Candidates {
  hasDigit: boolean;
  /** CUE_SCAN_AT */
  cue: number[];
  /** CAP_SEQ_AT */
  capSeq: number[];
  /** SUFFIX_NUM_AT */
  suffix: number[];
  /** EN_STREET_AT, NUM_LED_AT, NUM_PREFIX_STREET_AT */
  numberLed: number[];
  /** CONT_STREET_AT, MIL_AT */
  contMil: number[];
  /** STREET_BEFORE_ZIP_AT */
  beforeZip: number[];
  /** ZIP_CITY_AT */
  zip: number[];
  /** ADDRESS_CUE_AT */
  addressCue: number[];
  /** STRONG_PLACE_AT */
  strongPlace: number[];
  /** Newlines after a line that ends in a letter (and maybe ",", "!", spaces): where a sign-off line may end (names/sign-offs.ts). */
  lineEndsAfterWord: number[];
  /** Colons after a letter and before a possible capital: where a place-list label may end (names/places/cues.ts). */
  labelColons: number[];
  /** PLACE_CUE_AT */
  place: number[];
  /** The spaces after a noun of a place (names/places/heads.ts) and before a capital, each with the noun's length: (space, length) pairs. */
  placeHeads: number[];
  /** KEY_VALUE_AT */
  locationKey: number[];
  /**
   * COUNTRY_RE's matches (start, end pairs) whose first word may begin a country name; undefined when
   * the text has surrogates (astral letters, which the char-code emulation of COUNTRY_RE leaves out).
   */
  countries: number[] | undefined;
}

/** The state of one scan: the candidates so far, and COUNTRY_RE's global scan. */
export interface Scan {
  t: Uint16Array;
  lo: string;
  firsts: Uint8Array;
  c: Candidates;
  countries: number[];
  /** End of COUNTRY_RE's last match: its next one starts there or later. */
  countryFrom: number;
  /** Set by countryEnd: a word after the first of the last match may begin a country ("Our Malawi office"). */
  countryLater: boolean;
  astral: boolean;
}
