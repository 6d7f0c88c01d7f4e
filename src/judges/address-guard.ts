import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';

// Where the service may send a judge's request. A workspace admin chooses the
// judges' base_url, so without a guard any admin could make our nodes POST to
// addresses only they can reach: the cloud's metadata service (169.254.169.254,
// fd00:ec2::254), or internal services. The check runs on the address actually
// connected to (after DNS, in the connector), so a name that resolves to a
// blocked address — or is re-pointed there after the panel was saved — is
// refused too.
//
// Link-local, unspecified, multicast and broadcast addresses are never a judge.
// Loopback and private networks are how a self-hosted operator reaches a local
// Ollama or vLLM, so they are allowed unless the operator sets
// JUDGE_PRIVATE_NETWORKS=deny (what a hosted deployment should do).

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
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** ::ffff:a.b.c.d (or its hex form) is the IPv4 address a.b.c.d on the wire. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return { address, family: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
  if (m[1]) return { address: m[1], family: 'ipv4' };
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
}

/** Why an IP address may not be a judge, or null when it may. */
export function blockedReason(ip: string, privateNetworks: PrivateNetworks): string | null {
  const { address, family } = unmapped(ip.replace(/^\[|\]$/g, ''));
  if (NEVER.check(address, family)) return `${ip} is a link-local, unspecified or multicast address`;
  if (privateNetworks === 'deny' && PRIVATE.check(address, family))
    return `${ip} is a loopback or private address (JUDGE_PRIVATE_NETWORKS=deny)`;
  return null;
}

class BlockedAddressError extends Error {
  readonly code = 'JUDGE_ADDRESS_BLOCKED';
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
 * The HTTP client the judges' requests go through: every connection's
 * address is checked — names in the lookup, IP literals (which skip the
 * lookup) in the connector.
 */
export function judgeDispatcher(privateNetworks: PrivateNetworks): Agent {
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
