// Byte helpers shared by the ledger's files. Everything that crosses the wire
// (proof hashes, leaf hashes, signatures, keys) is standard padded base64, and a
// verifier must not accept two spellings of the same bytes: Node's own decoder
// skips junk characters and ignores a bad tail, so we check strictly here.

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The bytes of canonical standard base64 (RFC 4648 §4, padded), or undefined. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (!BASE64.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  // Unused bits of the last character must be zero, or two strings would decode alike.
  return bytes.toString('base64') === text ? new Uint8Array(bytes) : undefined;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

const ENCODER = new TextEncoder();

/** `prefix` ‖ the UTF-8 bytes of `text` in one buffer, the text written once (a hash's input). */
export function prefixedUtf8(prefix: Uint8Array, text: string): Buffer {
  const out = Buffer.allocUnsafe(prefix.length + Buffer.byteLength(text, 'utf8'));
  out.set(prefix, 0);
  out.write(text, prefix.length, 'utf8');
  return out;
}

export function utf8(text: string): Uint8Array {
  return ENCODER.encode(text);
}
