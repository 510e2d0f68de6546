import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { OutboundAddressGuard } from '../../ports/calendar-fetcher.js';
import { isForbiddenAddress, isSpecialUseName } from './address-policy.js';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Resolves a host name to every address it has. Injected by tests to play DNS rebinding. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type OutboundRefusal = 'invalid-url' | 'scheme' | 'port' | 'forbidden-address';

export interface OutboundGuardOptions {
  /** host:port pairs let through although loopback/private or on another port: for tests only. */
  allowHosts: readonly string[];
  lookup?: HostLookup;
  /** How long check() waits for DNS before taking the name as one that does not resolve. */
  dnsTimeoutMs: number;
}

/** One hop of a fetch that passed the form check; `listed` when it is one of the allowHosts. */
export interface VettedTarget {
  readonly url: URL;
  readonly listed: boolean;
}

export interface OutboundGuard extends OutboundAddressGuard {
  /** The form check without DNS: scheme, port, IP literal and special-use name. Run on every hop before connecting. */
  vet(url: string | URL): { readonly ok: true; readonly target: VettedTarget } | { readonly ok: false; readonly reason: OutboundRefusal };
  /** A `lookup` for http.request that refuses the connection when the name resolves to a forbidden address. */
  connectLookup(target: VettedTarget): LookupFunction;
}

/** The connect-time refusal, told apart from DNS failures by the fetch that sees it. */
export class ForbiddenAddressError extends Error {
  readonly code = 'E_FORBIDDEN_ADDRESS';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to forbidden address ${address}`);
    this.name = 'ForbiddenAddressError';
  }
}

const standardPort: Record<string, string> = { 'http:': '80', 'https:': '443' };

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export function createOutboundGuard(o: OutboundGuardOptions): OutboundGuard {
  const resolve = o.lookup ?? systemLookup;
  const allowed = new Set(o.allowHosts);

  const vet: OutboundGuard['vet'] = (input) => {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      return { ok: false, reason: 'invalid-url' };
    }
    const port = standardPort[url.protocol];
    if (!port) return { ok: false, reason: 'scheme' };
    // URL drops a port equal to the scheme's default, so any port left is a non-standard one.
    const listed = allowed.has(`${url.hostname}:${url.port || port}`);
    if (listed) return { ok: true, target: { url, listed } };
    if (url.port !== '') return { ok: false, reason: 'port' };
    const host = bareHost(url);
    if (isIP(host) !== 0 ? isForbiddenAddress(host) : isSpecialUseName(host)) return { ok: false, reason: 'forbidden-address' };
    return { ok: true, target: { url, listed } };
  };

  return {
    vet,

    async check(input) {
      const vetted = vet(input);
      if (!vetted.ok) return vetted;
      const host = bareHost(vetted.target.url);
      if (vetted.target.listed || isIP(host) !== 0) return { ok: true };
      const addresses = await withTimeout(resolve(host), o.dnsTimeoutMs).catch(() => []);
      // A name that does not resolve (now) passes: the connect-time check refuses it later if it turns bad.
      return addresses.some((a) => isForbiddenAddress(a.address)) ? { ok: false, reason: 'forbidden-address' } : { ok: true };
    },

    connectLookup(target) {
      return (hostname, options, callback) => {
        resolve(hostname).then(
          (all) => {
            // One forbidden answer refuses the name: which of a mixed answer the socket would pick is not ours to choose.
            const bad = target.listed ? undefined : all.find((a) => isForbiddenAddress(a.address));
            if (bad) return callback(new ForbiddenAddressError(hostname, bad.address), '');
            const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
            const usable = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
            const first = usable[0];
            if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
            if (options.all) return callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
            callback(null, first.address, first.family);
          },
          (err: NodeJS.ErrnoException) => callback(err, ''),
        );
      };
    },
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('dns timeout')), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
