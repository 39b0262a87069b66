import { BlockList, isIP } from 'node:net';

/**
 * Addresses a URL import may not reach unless `IMPORT_ALLOW_PRIVATE_URLS` is set: loopback,
 * private, link-local, shared (CGNAT), multicast, documentation, benchmarking and reserved ranges
 * (IANA special-purpose registries), and the IPv6 forms that embed an IPv4 address (NAT64, 6to4,
 * Teredo), so that none of them reaches an internal service in disguise. `BlockList` itself
 * checks IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) against the IPv4 ranges.
 */
const SPECIAL_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

const SPECIAL_IPV6: readonly [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const SPECIAL = new BlockList();
for (const [network, prefix] of SPECIAL_IPV4) SPECIAL.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of SPECIAL_IPV6) SPECIAL.addSubnet(network, prefix, 'ipv6');

/** Whether `address` (an IP literal) is one a URL import must not connect to by default. */
export function isSpecialAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) throw new Error(`not an IP address: ${address}`);
  return SPECIAL.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
