import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Gives back what starting left behind: loading the service's modules and preparing its data grow V8's young
 * generation to its largest (32 MB, of which some 5 MB is in use once the service is ready) and leave garbage in
 * the old one, and an idle process never collects again, so an idle server held it for good. One full collection
 * that reduces memory, as V8 does under memory pressure, shrinks the young generation to its least (it grows back
 * under load as V8 sees fit) and returns the freed pages: the idle process's resident memory fell by some 35 MB
 * (docs/performance.md, "A quick restart and idle memory"). It takes some tens of milliseconds, once, just after
 * the service is ready. V8's own `gc` is exposed for the call only, in a context of its own, and hidden again.
 */
export function releaseStartMemory(): void {
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as Collect;
  setFlagsFromString('--no-expose-gc');
  collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
