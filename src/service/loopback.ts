/**
 * Whether a host is this machine's loopback interface, told by its address: `localhost`,
 * 127.0.0.0/8, `::1`, and IPv4-mapped 127.x.x.x (`::ffff:127.0.0.1`). A name is not an address:
 * `127.attacker.example` is a name anyone can register, and it resolves wherever its owner wants.
 */
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** `hostname` as `new URL(…).hostname` gives it (IPv6 in brackets, IPv4 normalised), or bare. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host === 'localhost.') return true;
  const version = isIP(host);
  // An IPv4-mapped IPv6 address is checked against the IPv4 rule too.
  return version !== 0 && LOOPBACK.check(host, version === 4 ? 'ipv4' : 'ipv6');
}
