import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';

/**
 * Where a webhook may go (SSRF). A URL whose host is, or resolves to, an
 * address of this machine, of a private network, link-local (cloud metadata
 * at 169.254.169.254 among them), shared, reserved or multicast is refused,
 * at registration and again at each delivery: the delivery connects to the
 * address it checked (the lookup below), so a name that resolves elsewhere
 * the second time (DNS rebinding) cannot lead it inside. Unless the sandbox
 * is told to allow them (WEBHOOK_ALLOW_PRIVATE_TARGETS=1: a local receiver
 * in development, and the tests).
 */

export interface TargetPolicy {
  allowPrivate: boolean;
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // shared (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: an IPv4 address inside (checked below)
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID…)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254 among them)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address stands for, if it is one. */
function embeddedIpv4(address: string): string | null {
  const mapped = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  const hex = /^::(?:ffff:(?:0:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex?.[1] && hex[2]) {
    const high = parseInt(hex[1], 16);
    const low = parseInt(hex[2], 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return null;
}

/** Whether a webhook must not be sent to `address` (an IP literal), unless allowed. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const v4 = embeddedIpv4(bare);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

export function refusedTarget(message: string): ApiError {
  return new ApiError(400, ERROR_CODES.webhookTargetRefused, message, [{ field: 'url', message }]);
}

type Resolve = (hostname: string) => Promise<string[]>;

const resolveAll: Resolve = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((a) => a.address));
    });
  });

/**
 * Checks a URL at registration: http(s), and (unless allowed) a host that is
 * not a private address and does not resolve to one. Throws a 400 naming
 * `url` and the address.
 */
export async function checkTarget(
  rawUrl: string,
  policy: TargetPolicy,
  resolve: Resolve = resolveAll,
): Promise<void> {
  const url = new URL(rawUrl);
  if (policy.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (isPrivateAddress(host))
      throw refusedTarget(
        `url must not point at a private, loopback, link-local or reserved address (${host})`,
      );
    return;
  }
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw refusedTarget(`url's host ${host} does not resolve: it cannot be checked or reached`);
  }
  const inside = addresses.find(isPrivateAddress);
  if (inside)
    throw refusedTarget(
      `url's host ${host} resolves to ${inside}, a private, loopback, link-local or reserved address`,
    );
}

/**
 * The lookup a delivery connects with: it resolves the name once, refuses
 * the connection if any address is one a webhook must not reach, and hands
 * the socket the addresses it checked (so nothing resolves it again).
 */
export function guardedLookup(policy: TargetPolicy, resolve: Resolve = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const inside = policy.allowPrivate ? undefined : addresses.find(isPrivateAddress);
        if (inside) {
          const error = Object.assign(
            new Error(`${hostname} resolved to ${inside}, a private or reserved address: refused`),
            { code: 'WEBHOOK_TARGET_REFUSED' },
          );
          callback(error, '', 0);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (wanted === 0 || a.family === wanted));
        const first = usable[0];
        if (!first) {
          callback(
            Object.assign(new Error(`${hostname} has no usable address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
          return;
        }
        if (options.all) (callback as (e: null, a: typeof usable) => void)(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
