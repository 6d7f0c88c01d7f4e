import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';

// Where the service may send a request whose address a tenant chose: a
// judge's base_url now, webhooks and SIEM endpoints the same way. Without a
// guard any workspace admin could make our nodes POST to addresses only they
// can reach: the cloud's metadata service (169.254.169.254, fd00:ec2::254), or
// internal services. The check runs on the address actually connected to
// (after DNS, in the connector), so a name that resolves to a blocked address
// — or is re-pointed there after it was saved — is refused too.
//
// Link-local, unspecified, multicast and broadcast addresses are never a
// destination. Loopback and private networks are how a self-hosted operator
// reaches a local Ollama or vLLM, so they are allowed unless the operator
// denies them (JUDGE_PRIVATE_NETWORKS=deny: what a hosted deployment should do).
//
// An IPv6 address can carry an IPv4 address that a translator or tunnel
// delivers to: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
// SIIT IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96, and the
// local-use 64:ff9b:1::/48, private as a whole, read at /96), 6to4
// (2002:AABB:CCDD::/48), Teredo (2001::/32: its server and its obfuscated
// client address) and ISATAP interface ids (…:5efe:a.b.c.d). Every IPv4
// address an IPv6 address may embed is checked by the IPv4 rules, and one
// refused is enough.

export type PrivateNetworks = 'allow' | 'deny';

const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('224.0.0.0', 4, 'ipv4');
NEVER.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, and 255.255.255.255
NEVER.addAddress('::', 'ipv6');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6'); // AWS's metadata service over IPv6

const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
PRIVATE.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking networks
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fec0::', 10, 'ipv6'); // deprecated site-local
PRIVATE.addSubnet('64:ff9b:1::', 48, 'ipv6'); // local-use NAT64: the operator's own translator

/** The 16 bytes of an IPv6 address (with an optional trailing dotted quad), or null. */
export function ipv6Bytes(text: string): Uint8Array | null {
  if (isIP(text) !== 6) return null;
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    s = `${s.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = s.includes('::') ? (s.split('::') as [string, string]) : [s, undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (rest === undefined && fill !== 0)) return null;
  const groups = [...left, ...Array<number>(fill).fill(0), ...right];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    out[i * 2] = g >> 8;
    out[i * 2 + 1] = g & 255;
  });
  return out;
}

const v4 = (b: ArrayLike<number>, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const zeros = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/** Every IPv4 address an IPv6 address may deliver to through a translator or a tunnel. */
export function embeddedIpv4(b: Uint8Array): string[] {
  const out: string[] = [];
  const w = (i: number) => (b[i * 2]! << 8) | b[i * 2 + 1]!;
  // ::a.b.c.d (compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT translated)
  if (zeros(b, 0, 10) && ((w(5) === 0 && !zeros(b, 12, 14)) || w(5) === 0xffff)) out.push(v4(b, 12));
  if (zeros(b, 0, 8) && w(4) === 0xffff && w(5) === 0) out.push(v4(b, 12));
  // NAT64 well-known prefix 64:ff9b::/96
  if (w(0) === 0x64 && w(1) === 0xff9b && zeros(b, 4, 12)) out.push(v4(b, 12));
  // NAT64 local-use 64:ff9b:1::/48 at its usual /96 (the network's own prefix length is not in the address;
  // the whole /48 counts as private besides: PRIVATE).
  if (w(0) === 0x64 && w(1) === 0xff9b && w(2) === 1) out.push(v4(b, 12));
  // 6to4 2002:AABB:CCDD::/48
  if (w(0) === 0x2002) out.push(v4(b, 2));
  // Teredo 2001:0000::/32: the server (bits 32-63) and the client (bits 96-127, inverted)
  if (w(0) === 0x2001 && w(1) === 0) {
    out.push(
      v4(b, 4),
      v4(
        Array.from(b.subarray(12, 16), (x) => x ^ 0xff),
        0,
      ),
    );
  }
  // ISATAP interface id: 0000:5efe or 0200:5efe, then the IPv4 address
  if ((w(4) === 0 || w(4) === 0x200) && w(5) === 0x5efe) out.push(v4(b, 12));
  return out;
}

function plainReason(address: string, family: 'ipv4' | 'ipv6', privateNetworks: PrivateNetworks): string | null {
  if (NEVER.check(address, family)) return 'a link-local, unspecified or multicast address';
  if (privateNetworks === 'deny' && PRIVATE.check(address, family))
    return 'a loopback or private address (private networks denied)';
  return null;
}

/** Why an IP address may not be a destination, or null when it may. */
export function blockedReason(ip: string, privateNetworks: PrivateNetworks): string | null {
  const address = ip.replace(/^\[|\]$/g, '');
  const family = isIP(address);
  if (family === 4) {
    const why = plainReason(address, 'ipv4', privateNetworks);
    return why && `${ip} is ${why}`;
  }
  if (family !== 6) return `${ip} is not an IP address`;
  const why = plainReason(address, 'ipv6', privateNetworks);
  if (why) return `${ip} is ${why}`;
  const bytes = ipv6Bytes(address);
  if (!bytes) return `${ip} is not an IP address`;
  for (const inner of embeddedIpv4(bytes)) {
    const innerWhy = plainReason(inner, 'ipv4', privateNetworks);
    if (innerWhy) return `${ip} embeds ${inner}, ${innerWhy}`;
  }
  return null;
}

/** The code of the error a refused connection fails with (its `cause` in fetch). */
export const BLOCKED_ADDRESS = 'OUTBOUND_ADDRESS_BLOCKED';

class BlockedAddressError extends Error {
  readonly code = BLOCKED_ADDRESS;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing the whole name when any of its addresses is blocked (no picking the harmless one). */
function guardedLookup(privateNetworks: PrivateNetworks) {
  return (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      for (const a of addresses) {
        const why = blockedReason(a.address, privateNetworks);
        if (why) return callback(new BlockedAddressError(`${hostname}: ${why}`), '');
      }
      if ((options as LookupAllOptions).all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}

/**
 * The HTTP client requests to tenant-chosen addresses go through: every
 * connection's address is checked — names in the lookup, IP literals (which
 * skip the lookup) in the connector.
 */
export function outboundDispatcher(privateNetworks: PrivateNetworks): Agent {
  const connector = buildConnector({ lookup: guardedLookup(privateNetworks) } as buildConnector.BuildOptions);
  return new Agent({
    connect(opts, callback) {
      if (isIP(opts.hostname.replace(/^\[|\]$/g, '')) !== 0) {
        const why = blockedReason(opts.hostname, privateNetworks);
        if (why) return callback(new BlockedAddressError(why), null);
      }
      return connector(opts, callback);
    },
  });
}
