import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { register } from '../../core/accounts/register.js';
import { authenticate, SESSION_LIFETIME_MS } from '../../core/accounts/sessions.js';
import { logout } from '../../core/accounts/logout.js';
import { createHousehold, updateHousehold } from '../../core/households/households.js';
import { removeMember } from '../../core/households/members.js';
import { decodeCursor, encodeCursor, liveStreams, type LiveEndReason, type LiveSink } from '../../core/households/live.js';
import type { Account } from '../../core/accounts/types.js';
import { domain } from './support.js';

type Heard = { kind: 'ready' | 'changed'; households: string[]; cursor: string } | { kind: 'end'; reason: LiveEndReason };

function recorder(): LiveSink & { heard: Heard[] } {
  const heard: Heard[] = [];
  return {
    heard,
    ready: (households, cursor) => heard.push({ kind: 'ready', households: [...households], cursor }),
    changed: (households, cursor) => heard.push({ kind: 'changed', households: [...households], cursor }),
    end: (reason) => heard.push({ kind: 'end', reason }),
  };
}

/** Lets the stream's checks run (they follow the memory stores' writes within a few turns). */
const settle = () => new Promise((r) => setTimeout(r, 20));

async function signedIn(deps: ReturnType<typeof domain>['deps'], name: string): Promise<{ account: Account; token: string; sessionKey: string }> {
  const r = await register(deps, { email: `${name}@example.com`, password: 'long enough', displayName: name });
  if (!r.ok || r.value.kind !== 'created') throw new Error('register failed');
  const account = (await deps.accounts.byId(r.value.issued.session.accountId))!;
  return { account, token: r.value.issued.token, sessionKey: r.value.issued.session.tokenHash };
}

async function household(deps: ReturnType<typeof domain>['deps'], owner: Account, name: string): Promise<string> {
  const h = await createHousehold(deps, owner, { name });
  if (!h.ok) throw new Error('create failed');
  return h.value.id;
}

describe('live streams (domain)', () => {
  it("opens with the sign-in's households and names a household when one of its members changes it", async () => {
    const { deps } = domain();
    const kari = await signedIn(deps, 'kari');
    const ola = await signedIn(deps, 'ola');
    const hansen = await household(deps, kari.account, 'Hansen');
    const olsen = await household(deps, ola.account, 'Olsen');
    const live = liveStreams(deps, { perLogin: 4 });
    const sink = recorder();
    await live.open({ accountId: kari.account.id, sessionKey: kari.sessionKey }, null, sink);
    await settle();
    expect(sink.heard).to.have.length(1);
    expect(sink.heard[0]).to.include({ kind: 'ready' });
    expect(sink.heard[0]).to.have.property('households').that.deep.equals([hansen]);

    await updateHousehold(deps, ola.account, olsen, { name: 'Olsens' });
    await settle();
    expect(sink.heard).to.have.length(1);

    await updateHousehold(deps, kari.account, hansen, { dinnerTime: '17:00' });
    await settle();
    expect(sink.heard.slice(1).map((e) => e.kind === 'changed' && e.households)).to.deep.equal([[hansen]]);
    expect(live.size).to.equal(1);
    live.closeAll();
    expect(sink.heard.at(-1)).to.deep.equal({ kind: 'end', reason: 'closing' });
    expect(live.size).to.equal(0);
  });

  it('tells a stream opened again with the last cursor what changed while it was away, and nothing when nothing did', async () => {
    const { deps } = domain();
    const kari = await signedIn(deps, 'kari');
    const hansen = await household(deps, kari.account, 'Hansen');
    const live = liveStreams(deps, { perLogin: 4 });
    const caller = { accountId: kari.account.id, sessionKey: kari.sessionKey };
    const first = recorder();
    const s = await live.open(caller, null, first);
    await settle();
    const cursor = (first.heard[0] as { cursor: string }).cursor;
    expect(decodeCursor(cursor)?.has(hansen)).to.equal(true);
    s.close();

    const unchanged = recorder();
    (await live.open(caller, cursor, unchanged)).close();
    expect(unchanged.heard.map((e) => e.kind)).to.deep.equal(['ready', 'end']);

    await updateHousehold(deps, kari.account, hansen, { name: 'Hansens' });
    const again = recorder();
    await live.open(caller, cursor, again);
    expect(again.heard.map((e) => e.kind)).to.deep.equal(['ready', 'changed']);
    expect((again.heard[1] as { households: string[] }).households).to.deep.equal([hansen]);

    // A cursor this service did not write counts as nothing seen.
    const garbled = recorder();
    await live.open(caller, 'not a cursor\u2028', garbled);
    expect(garbled.heard.map((e) => e.kind)).to.deep.equal(['ready', 'changed']);
    live.closeAll();
  });

  it('writes cursors that read back, and reads nothing else', () => {
    const seen = new Map([
      [randomUUID(), '3.1.7'],
      [randomUUID(), '0.0.0'],
    ]);
    expect(decodeCursor(encodeCursor(seen))).to.deep.equal(seen);
    expect(decodeCursor('')).to.deep.equal(new Map());
    for (const bad of ['a', 'a:b:c', 'a:b,', ':b', 'a:%E0%A4%A', 'x'.repeat(9000)]) expect(decodeCursor(bad), bad).to.equal(null);
  });

  it('ends the stream when its sign-in ends, by signing out or by time', async () => {
    const { deps, clock } = domain();
    const kari = await signedIn(deps, 'kari');
    await household(deps, kari.account, 'Hansen');
    const live = liveStreams(deps, { perLogin: 4 });
    const sink = recorder();
    await live.open({ accountId: kari.account.id, sessionKey: kari.sessionKey }, null, sink);
    const auth = await authenticate(deps, kari.token);
    if (!auth.ok) throw new Error('not signed in');
    await logout(deps, auth.value);
    await settle();
    expect(sink.heard.at(-1)).to.deep.equal({ kind: 'end', reason: 'signed-out' });
    expect(live.size).to.equal(0);

    const ola = await signedIn(deps, 'ola');
    const byTime = recorder();
    await live.open({ accountId: ola.account.id, sessionKey: ola.sessionKey }, null, byTime);
    await settle();
    clock.advance(SESSION_LIFETIME_MS + 1000);
    live.recheck();
    await settle();
    expect(byTime.heard.at(-1)).to.deep.equal({ kind: 'end', reason: 'signed-out' });
  });

  it("ends a sign-in's oldest stream past its allowance, and leaves other sign-ins' streams alone", async () => {
    const { deps } = domain();
    const kari = await signedIn(deps, 'kari');
    const ola = await signedIn(deps, 'ola');
    const live = liveStreams(deps, { perLogin: 2 });
    const sinks = [recorder(), recorder(), recorder()];
    const olas = recorder();
    await live.open({ accountId: ola.account.id, sessionKey: ola.sessionKey }, null, olas);
    for (const sink of sinks) await live.open({ accountId: kari.account.id, sessionKey: kari.sessionKey }, null, sink);
    await settle();
    expect(sinks.map((s) => s.heard.at(-1)?.kind)).to.deep.equal(['end', 'ready', 'ready']);
    expect(sinks[0]!.heard.at(-1)).to.deep.equal({ kind: 'end', reason: 'replaced' });
    expect(olas.heard.map((e) => e.kind)).to.deep.equal(['ready']);
    expect(live.size).to.equal(3);
    live.closeAll();
  });

  it('carries only the households the sign-in belongs to at the moment: one left is dropped, one joined is named', async () => {
    const { deps, clock } = domain();
    const kari = await signedIn(deps, 'kari');
    const ola = await signedIn(deps, 'ola');
    const hansen = await household(deps, kari.account, 'Hansen');
    const memberId = randomUUID();
    await deps.households.addMember(hansen, { id: memberId, displayName: 'Ola', role: 'Adult', accountId: ola.account.id, createdAt: clock.now() });
    const live = liveStreams(deps, { perLogin: 4 });
    const sink = recorder();
    await live.open({ accountId: ola.account.id, sessionKey: ola.sessionKey }, null, sink);
    await settle();
    expect((sink.heard[0] as { households: string[] }).households).to.deep.equal([hansen]);

    const removed = await removeMember(deps, kari.account, hansen, memberId);
    expect(removed.ok).to.equal(true);
    await settle();
    const afterRemoval = sink.heard.length;
    await updateHousehold(deps, kari.account, hansen, { name: 'Hansens' });
    await settle();
    // Nothing of Hansen reaches Ola any more, not even that it changed.
    expect(sink.heard.slice(afterRemoval)).to.deep.equal([]);
    expect(sink.heard.filter((e) => e.kind === 'changed' && e.households.includes(hansen))).to.deep.equal([]);

    const olsen = await household(deps, ola.account, 'Olsen');
    await settle();
    const last = sink.heard.at(-1) as { kind: string; households: string[]; cursor: string };
    expect(last.kind).to.equal('changed');
    expect(last.households).to.deep.equal([olsen]);
    expect([...decodeCursor(last.cursor)!.keys()]).to.deep.equal([olsen]);
    live.closeAll();
  });
  it("does the work of a change for the changed household's streams only, and checks a stream opened for its own sign-in alone", async () => {
    const { deps } = domain();
    const kari = await signedIn(deps, 'kari');
    const ola = await signedIn(deps, 'ola');
    const per = await signedIn(deps, 'per');
    const hansen = await household(deps, kari.account, 'Hansen');
    await household(deps, ola.account, 'Olsen');
    await household(deps, per.account, 'Persen');
    const statesAsked: string[][] = [];
    const lookedUp: string[] = [];
    const counted = {
      ...deps,
      changes: { ...deps.changes, states: (ids: readonly string[]) => (statesAsked.push([...ids]), deps.changes.states(ids)) },
      sessions: { lookup: (key: string) => (lookedUp.push(key), deps.sessions.lookup(key)) },
    };
    const live = liveStreams(counted, { perLogin: 4 });
    const kariSink = recorder();
    const olaSink = recorder();
    await live.open({ accountId: kari.account.id, sessionKey: kari.sessionKey }, null, kariSink);
    await live.open({ accountId: ola.account.id, sessionKey: ola.sessionKey }, null, olaSink);
    await settle();

    lookedUp.length = 0;
    await live.open({ accountId: per.account.id, sessionKey: per.sessionKey }, null, recorder());
    await settle();
    expect(lookedUp).to.deep.equal([per.sessionKey]);

    statesAsked.length = 0;
    await updateHousehold(deps, kari.account, hansen, { dinnerTime: '17:30' });
    await settle();
    expect(statesAsked).to.deep.equal([[hansen]]);
    expect(kariSink.heard.at(-1)).to.include({ kind: 'changed' });
    expect(olaSink.heard.map((e) => e.kind)).to.deep.equal(['ready']);

    // The heartbeat still checks every sign-in, each once.
    lookedUp.length = 0;
    live.recheck();
    await settle();
    expect([...lookedUp].sort()).to.deep.equal([kari.sessionKey, ola.sessionKey, per.sessionKey].sort());
    live.closeAll();
  });
});
