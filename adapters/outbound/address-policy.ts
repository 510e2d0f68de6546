import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

// Global unicast IPv6 is allocated from 2000::/3 only; ipaddr.js calls some addresses outside it "unicast"
// (the deprecated IPv4-compatible ::a.b.c.d, for one), so an allowlist is safer than a denylist here.
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an outbound fetch must not connect to this address. Only public unicast passes: loopback, private,
 * CGNAT (100.64/10), link-local, unique-local, multicast, broadcast, unspecified (0/8, ::), documentation and
 * other reserved ranges, and every IPv6 form that embeds an IPv4 address (mapped, NAT64, 6to4, Teredo) are
 * refused, so that no spelling of an inner address slips through. Anything that is not an IP address is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare) === 0) return true;
  if (ipaddr.parse(bare).range() !== 'unicast') return true;
  return isIP(bare) === 6 && !ipaddr.IPv6.parse(bare).match(globalUnicastV6);
}

/**
 * Special-use domain names that never name a public host: `localhost` (RFC 6761, every name under it is loopback),
 * `local` (mDNS on the local link, RFC 6762), `internal` (reserved for private networks by ICANN, 2024),
 * `home.arpa` (home networks, RFC 8375), `invalid` and `test` (RFC 6761, never delegated).
 */
const SPECIAL_USE_NAMES: readonly string[] = ['localhost', 'local', 'internal', 'home.arpa', 'invalid', 'test'];

/**
 * Whether a host name is, or lies under, a special-use name, whatever its case and however many trailing dots
 * (`LOCALHOST`, `localhost.`, `foo.localhost`, `printer.local`). Refused without asking DNS, as an address literal
 * of loopback is: such a name resolves, if at all, to something on this machine or its network.
 */
export function isSpecialUseName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return SPECIAL_USE_NAMES.some((special) => name === special || name.endsWith(`.${special}`));
}
