import type { HostLookup } from '../../adapters/outbound/guard.js';

/**
 * A name server that rebinds: the first lookup answers a public address, the next one 127.0.0.1, any after that
 * nothing. `asked` is every name it was asked for, in order.
 */
export function rebindingLookup(): { lookup: HostLookup; asked: string[] } {
  const answers = [[{ address: '93.184.216.34', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
  const asked: string[] = [];
  const lookup: HostLookup = async (host) => {
    asked.push(host);
    return answers.shift() ?? [];
  };
  return { lookup, asked };
}
