import { type FieldError, unprocessable } from '../core/index.ts';

// A secret stays bound to the destination it was given for. A judge's API key
// (webhook and SIEM tokens the same way) is given together with the URL it is
// sent to; a later write that points the URL elsewhere without giving the
// secret again must not carry the stored secret along, or anyone allowed to
// edit the URL (but never shown the secret) could send it to a host they
// control.
//
// The destination is the URL's origin: scheme, host and port (the port a
// scheme implies when none is written). A path change on the same origin keeps
// the secret: that host receives it either way. Of refusing the write and
// dropping the secret, refusing is the safer: nothing changes behind the
// caller's back (a judge silently left without its key would fail every call),
// and the caller must decide, by giving the secret again or clearing it.

/** The origin a secret sent to this URL reaches, normalized (lower-case host, default port elided). */
export function destinationOf(url: string): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${u.protocol}`);
  return u.origin;
}

/** Whether two URLs send what they are given to the same origin (an unparsable URL matches nothing). */
export function sameDestination(a: string, b: string): boolean {
  try {
    return destinationOf(a) === destinationOf(b);
  } catch {
    return false;
  }
}

/** What a write says about the secret: a new one, clear it (null), or nothing (keep the stored one). */
export type GivenSecret = string | null | undefined;

/**
 * The stored secret a write keeps, or null. A write that gives no secret keeps
 * the stored one only while the destination is the same; a changed destination
 * without a secret is 422 naming `secretField`, with both origins in the message.
 */
export function keptSecret<T>(
  stored: { url: string; secret: T | null } | undefined,
  url: string,
  given: GivenSecret,
  fields: { secret: string; url: string },
): T | null {
  if (given !== undefined || !stored || stored.secret === null) return null;
  if (sameDestination(stored.url, url)) return stored.secret;
  const errors: FieldError[] = [
    {
      field: fields.secret,
      message: `required: the stored secret was given for ${originOrUrl(stored.url)} and is not sent to ${originOrUrl(url)}; give it again, or null to store none`,
    },
  ];
  throw unprocessable(
    `${fields.url} changes where the stored secret is sent; a stored secret is never sent to another origin than the one it was given for.`,
    errors,
  );
}

function originOrUrl(url: string): string {
  try {
    return destinationOf(url);
  } catch {
    return JSON.stringify(url.slice(0, 200));
  }
}
