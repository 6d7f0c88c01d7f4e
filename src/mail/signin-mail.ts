// The sign-in code message (DESIGN §5; research accounts-and-stack §1).
// Plain text, short, the code written plainly in the subject and the body.

export interface SignInMailOptions {
  /** Base URL of the service, shown so the reader knows where the code belongs. */
  publicUrl?: string;
  /** Minutes until the code expires. */
  minutes: number;
}

const CODE_RE = /^[0-9]{6,}$/;

function serviceUrl(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined || publicUrl === '') return undefined;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new TypeError('publicUrl is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('publicUrl must be http(s)');
  return url.origin;
}

export function signInMail(code: string, opts: SignInMailOptions): { subject: string; text: string } {
  if (typeof code !== 'string' || !CODE_RE.test(code)) throw new TypeError('sign-in code must be 6 or more digits');
  const { minutes } = opts;
  if (!Number.isInteger(minutes) || minutes < 1) throw new TypeError('minutes must be a positive integer');
  const url = serviceUrl(opts.publicUrl);
  const duration = minutes === 1 ? '1 minute' : `${minutes} minutes`;

  const lines = [
    `Your agent-ledger sign-in code is: ${code}`,
    '',
    `It expires in ${duration} and works once.`,
    ...(url ? [`Enter it on the sign-in page at ${url}`] : []),
    '',
    'If you did not ask to sign in, you can ignore this message:',
    'nobody can sign in without the code. Do not share it.',
    '',
  ];
  return {
    subject: `Your agent-ledger sign-in code: ${code}`,
    text: lines.join('\n'),
  };
}
