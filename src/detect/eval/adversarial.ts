// Adversarial inputs used by the linear-time test and the benchmark (no corpus data).

export function adversarialInputs(n = 32_000): Record<string, string> {
  const rep = (s: string) => s.repeat(Math.ceil(n / s.length)).slice(0, n);
  return {
    digits: rep('1234567890'),
    zeros: '0'.repeat(n),
    at: '@'.repeat(n),
    spaces: ' '.repeat(n),
    dots: '.'.repeat(n),
    dashes: '-'.repeat(n),
    colons: ':'.repeat(n),
    digit_space: rep('1 '),
    digit_dash: rep('12-'),
    digit_dot: rep('1.2.'),
    email_near: rep('a@b.'),
    email_local: rep('a.b_c+d') + '@',
    ip_near: rep('255.255.255.'),
    ipv6_near: rep('ffff:'),
    hex: rep('0123456789abcdef'),
    base64: rep('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'),
    letters: 'a'.repeat(n),
    caps_words: rep('Anna Maria '),
    cap_letters: 'A'.repeat(n),
    iban_near: rep('DE89 3704 0044 0532 0130 00 '),
    card_near: rep('4111 1111 1111 111 '),
    phone_near: rep('+1 (415) 555-01 '),
    url_near: rep('http://a'),
    slash: rep('https://'),
    key_value: rep('password=password='),
    token_near: rep('ghp_'),
    jwt_near: rep('eyJhbGciOi.'),
    pem: '-----BEGIN PRIVATE KEY-----\n' + rep('QUJD\n'),
    injection_near: rep('ignore all the previous '),
    tags: rep('\u{E0049}\u{E0067}'),
    zero_width: rep('a\u200b'),
    emoji: rep('😀🎉👍'),
    newlines: '\n'.repeat(n),
    brackets: rep('[(<{'),
    quotes: rep('"\'`'),
    mixed_ws: rep(' \t\n\r'),
    names_seq: rep('Mr. John '),
    street_near: rep('12 Main '),
    // A street whose line goes on with one long run of letters that is not an
    // address: a regex that may split a word anywhere backtracks exponentially.
    street_then_run: rep('1 Main Street abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij!\n'),
    // thousands of real findings: any detector comparing each finding with all others is quadratic here
    findings_dense: findingsDense(n),
  };
}

/** Text of `n` chars dense with findings: an e-mail, a phone, a card and an IPv4 address every 84 chars. */
export function findingsDense(n: number): string {
  const unit = 'mail a.b@example.com or call +1 415 555 0100, card 4111 1111 1111 1111, ip 10.0.0.1; ';
  return unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
}
