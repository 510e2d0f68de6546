import { expect } from 'chai';
import webpush from 'web-push';
import { recordingPushSenders } from '../../adapters/memory/push-sender.js';
import { deliverPending, TICK_QUIET_MS } from '../../core/push/delivery.js';
import { PUSH_TOKEN_MAX } from '../../core/push/types.js';
import { eachDatabase, httpService } from '../support/http-suite.js';
import { captureLog, startTestServer } from '../support/server.js';
import { createRuntime } from '../../bootstrap/runtime.js';
import { jobsOf, runExclusive } from '../../bootstrap/jobs.js';
import { Client, freshEmail, signedInClient } from '../support/client.js';

const NOW = new Date('2026-05-06T09:00:00.000Z');
const MONDAY = '2026-05-04';
const FCM_TOKEN = 'dGVzdA:APA91bH-x_y/z+0';
const devicePath = (token: string) => `/api/v1/me/devices/${encodeURIComponent(token)}`;

eachDatabase('push devices', function (kind) {
  this.timeout(20_000);
  const push = recordingPushSenders('log', 'fcm');
  const server = httpService(kind, { now: NOW, keepTime: true, runtime: { push } });
  const { clock } = server;

  const me = async (c: Client) => (await c.get('/api/v1/me')).json.user.id as string;

  describe('GET /app/web-push', () => {
    it('answers a signed-in person null without Web Push configured, and the VAPID public key a browser subscribes with when it is', async () => {
      expect((await server.client().get('/api/v1/app/web-push')).status).to.equal(401);
      const off = await (await server.signedIn()).client.get('/api/v1/app/web-push');
      expect([off.status, off.headers.get('cache-control')]).to.deep.equal([200, 'private, max-age=300']);
      expect(off.json).to.deep.equal({ vapidPublicKey: null });
      const vapid = webpush.generateVAPIDKeys();
      const on = await startTestServer(kind, { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: 'mailto:ops@dinner.example' }, { clock });
      try {
        expect((await (await signedInClient(on.url)).client.get('/api/v1/app/web-push')).json).to.deep.equal({ vapidPublicKey: vapid.publicKey });
      } finally {
        await on.stop();
      }
    });
  });

  describe('PUT /me/devices', () => {
    it('registers a token: 200, every switch on, provider null the default; again: marked seen, switches kept', async () => {
      const { client } = await server.signedIn();
      const res = await client.put('/api/v1/me/devices', { token: FCM_TOKEN, platform: 'android', provider: null });
      expect(res.status, res.text).to.equal(200);
      expect(res.json).to.deep.equal({
        token: FCM_TOKEN,
        platform: 'android',
        provider: 'log',
        listChanges: true,
        householdNews: true,
        runDone: true,
        reminders: true,
        lastSeenAt: clock.now().toISOString(),
      });
      expect((await client.patch(devicePath(FCM_TOKEN), { listChanges: false, householdNews: true, runDone: true })).status).to.equal(200);
      clock.advance(60_000);
      const again = await client.put('/api/v1/me/devices', { Token: FCM_TOKEN, Platform: 'android', Provider: 'fcm' });
      expect(again.status).to.equal(200);
      expect(again.json).to.include({ provider: 'fcm', listChanges: false, lastSeenAt: clock.now().toISOString() });
      expect((await client.get(devicePath(FCM_TOKEN))).json).to.deep.equal(again.json);
    });

    it('hands a token known under another login to the caller, never duplicated', async () => {
      const a = (await server.signedIn()).client;
      const b = (await server.signedIn()).client;
      const token = `shared-${Date.now()}`;
      await a.put('/api/v1/me/devices', { token, platform: 'ios', provider: null });
      await a.patch(devicePath(token), { listChanges: false, householdNews: false, runDone: false, reminders: false });
      const moved = await b.put('/api/v1/me/devices', { token, platform: 'ios', provider: null });
      expect(moved.status).to.equal(200);
      expect(moved.json).to.include({ listChanges: true, householdNews: true, runDone: true, reminders: true });
      const gone = await a.get(devicePath(token));
      expect([gone.status, gone.json.code]).to.deep.equal([404, 'push_device_not_found']);
      expect(await server.runtime.deps.pushDevices.ofAccounts([await me(a), await me(b)])).to.have.length(1);
    });

    it('validates the body: platform, token length and characters, provider required and known', async () => {
      const { client } = await server.signedIn();
      const put = (body: unknown) => client.put('/api/v1/me/devices', body);
      const code = async (body: unknown) => {
        const r = await put(body);
        return [r.status, r.json.code];
      };
      expect(await code({ token: 't1', platform: 'windows', provider: null })).to.deep.equal([400, 'validation_failed']);
      expect(await code({ token: 't1', platform: 'ios' })).to.deep.equal([400, 'validation_failed']);
      expect(await code({ token: '', platform: 'ios', provider: null })).to.deep.equal([400, 'validation_failed']);
      expect(await code({ token: '   ', platform: 'ios', provider: null })).to.deep.equal([400, 'validation_failed']);
      expect(await code({ token: 'tøken', platform: 'ios', provider: null })).to.deep.equal([400, 'validation_failed']);
      expect(await code({ token: 'x'.repeat(PUSH_TOKEN_MAX + 1), platform: 'ios', provider: null })).to.deep.equal([400, 'value_too_long']);
      expect(await code({ token: 't1', platform: 'ios', provider: 'apns' })).to.deep.equal([400, 'push_provider_unknown']);
      const long = 'x'.repeat(PUSH_TOKEN_MAX);
      expect((await put({ token: long, platform: 'ios', provider: null })).status).to.equal(200);
      expect((await client.get(devicePath(long))).json.token).to.equal(long);
      // The web app's Web Push subscription: platform web, the subscription's JSON as the token.
      const subscription = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'BPk', auth: 'x1' } });
      expect((await put({ token: subscription, platform: 'web', provider: null })).json).to.include({ token: subscription, platform: 'web' });
      expect((await client.get(devicePath(subscription))).status).to.equal(200);
    });
  });

  describe('GET, PATCH, DELETE /me/devices/{token}', () => {
    it("answer 404 push_device_not_found for a token that is not the caller's", async () => {
      const a = (await server.signedIn()).client;
      const b = (await server.signedIn()).client;
      await a.put('/api/v1/me/devices', { token: 'mine-only', platform: 'ios', provider: null });
      for (const r of [
        await b.get(devicePath('mine-only')),
        await b.patch(devicePath('mine-only'), { listChanges: false, householdNews: false, runDone: false }),
        await b.delete(devicePath('mine-only')),
        await a.get(devicePath('never-registered')),
      ]) {
        expect([r.status, r.json.code]).to.deep.equal([404, 'push_device_not_found']);
      }
      expect((await a.get(devicePath('mine-only'))).status).to.equal(200);
    });

    it('PATCH sets the switches; reminders omitted or null keeps its value; a missing switch is 400', async () => {
      const { client } = await server.signedIn();
      await client.put('/api/v1/me/devices', { token: 'patch-me', platform: 'android', provider: null });
      const p = (body: unknown) => client.patch(devicePath('patch-me'), body);
      expect((await p({ listChanges: false, householdNews: true, runDone: false, reminders: false })).json).to.include({ listChanges: false, householdNews: true, runDone: false, reminders: false });
      expect((await p({ listChanges: true, householdNews: true, runDone: true })).json).to.include({ listChanges: true, runDone: true, reminders: false });
      expect((await p({ listChanges: true, householdNews: true, runDone: true, reminders: null })).json.reminders).to.equal(false);
      expect((await p({ listChanges: true, householdNews: false, runDone: true, reminders: true })).json).to.include({ householdNews: false, reminders: true });
      const bad = await p({ listChanges: true, runDone: true });
      expect([bad.status, bad.json.code]).to.deep.equal([400, 'validation_failed']);
    });

    it('DELETE answers 204, then 404', async () => {
      const { client } = await server.signedIn();
      await client.put('/api/v1/me/devices', { token: 'delete-me', platform: 'ios', provider: null });
      expect((await client.delete(devicePath('delete-me'))).status).to.equal(204);
      expect((await client.delete(devicePath('delete-me'))).status).to.equal(404);
      expect((await client.get(devicePath('delete-me'))).status).to.equal(404);
    });

    it('every device route needs a session', async () => {
      const anon = server.client();
      for (const r of [
        await anon.put('/api/v1/me/devices', { token: 't', platform: 'ios', provider: null }),
        await anon.get(devicePath('t')),
        await anon.patch(devicePath('t'), { listChanges: true, householdNews: true, runDone: true }),
        await anon.delete(devicePath('t')),
      ]) {
        expect(r.status).to.equal(401);
      }
    });

    it('are in the OpenAPI document with their problems', async () => {
      const doc = (await server.client().get('/api/v1/openapi.json')).json;
      const put = doc.paths['/api/v1/me/devices'].put;
      expect(put.operationId).to.equal('registerPushDevice');
      expect(JSON.stringify(put)).to.include('push_provider_unknown');
      expect(Object.keys(doc.paths['/api/v1/me/devices/{token}'])).to.include.members(['get', 'patch', 'delete']);
      expect(JSON.stringify(doc.paths['/api/v1/me/devices/{token}'].patch)).to.include('push_device_not_found');
    });
  });

  describe('delivery, end to end', () => {
    const sends = () => push.calls;
    const deliver = () => deliverPending(server.runtime.deps);

    it('joined, item added, ticks and a completed trip reach the right devices, once, in their languages', async () => {
      const h = await server.household();
      const adult = await h.join('Adult', 'Ola');
      // An English login: Accept-Language at sign-up.
      const junior = server.client();
      await junior.post('/api/v1/auth/register', { email: freshEmail(), password: 'correct horse battery', displayName: 'Lille' }, { headers: { 'Accept-Language': 'en' } });
      const [owner, ola, lille] = [h.owner, adult.client, junior];
      const token = (name: string) => `${name}-${h.id}`;
      await owner.put('/api/v1/me/devices', { token: token('owner'), platform: 'ios', provider: null });
      await ola.put('/api/v1/me/devices', { token: token('ola'), platform: 'android', provider: 'fcm' });
      await lille.put('/api/v1/me/devices', { token: token('lille'), platform: 'android', provider: null });
      await deliver();
      const before = sends().length;
      const mine = () => sends().slice(before).filter((c) => c.target.token.endsWith(h.id)).map((c) => `${c.target.token.split('-')[0]}: ${c.message.body}`).sort();

      // Joined: everyone in the household but the joiner.
      const code = (await owner.post(`${h.base}/invites`, { role: 'Junior' })).json.code;
      expect((await lille.post('/api/v1/invites/accept', { code })).status).to.equal(200);
      await deliver();
      expect(mine()).to.deep.equal(['ola: Lille ble med i husstanden', 'owner: Lille ble med i husstanden']);

      // Item added: one push to the household (not to the one who added it).
      const plan = (await owner.put(`${h.base}/plans/week/${MONDAY}`)).json;
      const list = `${h.base}/plans/${plan.id}/shopping-list`;
      const item = (await ola.post(`${list}/items`, { displayName: '2 l melk' })).json;
      const egg = (await ola.post(`${list}/items`, { displayName: 'egg' })).json;
      await deliver();
      expect(mine().slice(2)).to.have.length(4);
      expect(mine()).to.include.members(['lille: Ola added melk to the shopping list', 'owner: Ola la til melk på handlelisten']);

      // Ticks: held while the shopper ticks, then one coalesced push per device.
      const at = sends().length;
      expect((await owner.patch(`${h.base}/shopping-items/${item.id}`, { status: 'Purchased' })).status).to.equal(200);
      expect((await owner.patch(`${h.base}/shopping-items/${egg.id}`, { status: 'Purchased' })).status).to.equal(200);
      // A second tick on a line is not a first tick: no further push.
      expect((await owner.patch(`${h.base}/shopping-items/${egg.id}`, { status: 'Buy' })).status).to.equal(200);
      expect((await owner.patch(`${h.base}/shopping-items/${egg.id}`, { status: 'Purchased' })).status).to.equal(200);
      await deliver();
      expect(sends().length).to.equal(at);
      clock.advance(TICK_QUIET_MS);
      await deliver();
      const ticked = sends().slice(at).map((c) => `${c.target.token.split('-')[0]}: ${c.message.body}`).sort();
      expect(ticked).to.deep.equal(['lille: 2 items ticked off the shopping list', 'ola: 2 varer er krysset av på handlelisten']);

      // The trip completed: one receipt reminder to the shopper, however often complete is called.
      const done = sends().length;
      expect((await lille.post(`${list}/complete`)).status).to.equal(200);
      expect((await lille.post(`${list}/complete`)).status).to.equal(200);
      await deliver();
      await deliver();
      expect(sends().slice(done).map((c) => [c.target.token, c.message.body])).to.deep.equal([[token('lille'), 'Remember to add the receipt from your shopping trip.']]);
    });

    it('sharing off: an item added and ticks reach no other member, also those queued before it was turned off; on again they do', async () => {
      const h = await server.household();
      const adult = await h.join('Adult', 'Ola');
      const token = (name: string) => `${name}-sharing-${h.id}`;
      await h.owner.put('/api/v1/me/devices', { token: token('owner'), platform: 'ios', provider: null });
      await adult.client.put('/api/v1/me/devices', { token: token('ola'), platform: 'android', provider: 'fcm' });
      await deliver();
      const mine = (from: number) => sends().slice(from).filter((c) => c.target.token.endsWith(`sharing-${h.id}`)).map((c) => c.target.token.split('-')[0]);
      const plan = (await h.owner.put(`${h.base}/plans/week/${MONDAY}`)).json;
      const list = `${h.base}/plans/${plan.id}/shopping-list`;
      const start = sends().length;
      // Queued while sharing was on, handed over after it went off: held back too.
      const milk = (await adult.client.post(`${list}/items`, { displayName: 'melk' })).json;
      expect((await h.owner.patch(`${h.base}/shopping-settings`, { sharingOff: true })).status).to.equal(200);
      await adult.client.post(`${list}/items`, { displayName: 'egg' });
      expect((await h.owner.patch(`${h.base}/shopping-items/${milk.id}`, { status: 'Purchased' })).status).to.equal(200);
      await deliver();
      clock.advance(TICK_QUIET_MS);
      await deliver();
      expect(mine(start)).to.deep.equal([]);
      // On again: the next change is shared.
      expect((await h.owner.patch(`${h.base}/shopping-settings`, { sharingOff: false })).status).to.equal(200);
      await adult.client.post(`${list}/items`, { displayName: 'brød' });
      await deliver();
      expect(mine(start)).to.deep.equal(['owner']);
    });

    it('a deleted device gets nothing more, and a token the provider calls gone is dropped', async () => {
      const h = await server.household();
      const adult = await h.join('Adult', 'Ola');
      const tokens = { a: `gone-${h.id}`, b: `deleted-${h.id}`, c: `kept-${h.id}` };
      await adult.client.put('/api/v1/me/devices', { token: tokens.a, platform: 'android', provider: 'fcm' });
      await adult.client.put('/api/v1/me/devices', { token: tokens.b, platform: 'android', provider: null });
      await adult.client.put('/api/v1/me/devices', { token: tokens.c, platform: 'android', provider: null });
      const plan = (await h.owner.put(`${h.base}/plans/week/${MONDAY}`)).json;
      const fcm = push.senders.get('fcm')!;
      fcm.answer = (t) => (t.token === tokens.a ? { kind: 'gone' } : { kind: 'sent' });
      try {
        expect((await h.owner.post(`${h.base}/plans/${plan.id}/shopping-list/items`, { displayName: 'brød' })).status).to.equal(200);
        expect((await adult.client.delete(devicePath(tokens.b))).status).to.equal(204);
        const before = sends().length;
        await deliver();
        expect(sends().slice(before).map((c) => c.target.token).sort()).to.deep.equal([tokens.a, tokens.c].sort());
        expect((await adult.client.get(devicePath(tokens.a))).status).to.equal(404);
        expect((await server.runtime.deps.pushDeliveries.ofHousehold(h.id)).map((d) => [d.token, d.state])).to.deep.equal([[tokens.c, 'sent']]);
      } finally {
        fcm.answer = () => ({ kind: 'sent' });
      }
    });

    // SQLite serves one process (bootstrap/jobs.ts): the two-process case is defined on Postgres only.
    const onPostgres = kind.name === 'postgres' ? it : ((() => undefined) as unknown as Mocha.TestFunction);
    onPostgres('two processes on one Postgres, delivering at once, send every message to every device exactly once', async function () {
      const push2 = recordingPushSenders('log', 'fcm');
      const second = await createRuntime(server.config, { clock, push: push2, logger: captureLog().logger, ...(server.database.schema ? { schema: server.database.schema } : {}) });
      const slow = () => new Promise<{ kind: 'sent' }>((r) => setTimeout(() => r({ kind: 'sent' }), 5));
      for (const p of [push, push2]) for (const sender of p.senders.values()) sender.answer = slow;
      try {
        const h = await server.household();
        const members = [{ client: h.owner }, await h.join('Adult', 'Ola'), await h.join('Adult', 'Kari')];
        for (const [i, m] of members.entries()) {
          await m.client.put('/api/v1/me/devices', { token: `p${i}-phone-${h.id}`, platform: 'android', provider: null });
          await m.client.put('/api/v1/me/devices', { token: `p${i}-tablet-${h.id}`, platform: 'android', provider: 'fcm' });
        }
        const plan = (await h.owner.put(`${h.base}/plans/week/${MONDAY}`)).json;
        // The joins' pushes are counted out: what is counted is the items'.
        const ours = () =>
          [...push.calls, ...push2.calls].filter((c) => c.target.token.endsWith(h.id) && c.message.data['kind'] === 'list-item-added').map((c) => `${c.target.token} ${c.message.body}`);
        const start = ours().length;
        const add = async (n: number) => {
          for (let i = 0; i < n; i++) expect((await members[i % 3]!.client.post(`${h.base}/plans/${plan.id}/shopping-list/items`, { displayName: `vare${i}-${n}` })).status).to.equal(200);
        };
        // The use case itself, in both processes at once, in small batches: the row claims alone keep them apart.
        await add(6);
        // One round each first, so that both surely hold part of the work (which one wins a race is up to timing).
        await deliverPending(server.runtime.deps, { batch: 3 });
        await deliverPending(second.deps, { batch: 3 });
        for (let round = 0; round < 6; round++) await Promise.all([deliverPending(server.runtime.deps, { batch: 3 }), deliverPending(second.deps, { batch: 3 })]);
        // The job as scheduled: on Postgres the advisory lock lets one process run it at a time as well.
        await add(3);
        const jobA = jobsOf(server.runtime).find((j) => j.name === 'deliver-pushes')!;
        const jobB = jobsOf(second).find((j) => j.name === 'deliver-pushes')!;
        for (let round = 0; round < 3; round++) await Promise.all([runExclusive(server.runtime.db, server.runtime.logger, jobA), runExclusive(second.db, second.logger, jobB)]);
        const sent = ours().slice(start);
        // 9 items, each to the 4 devices of the two members who did not add it.
        expect(sent).to.have.length(36);
        expect(new Set(sent).size).to.equal(36);
        // Both processes did part of the work.
        const by = (p: typeof push) => p.calls.filter((c) => c.target.token.endsWith(h.id)).length;
        expect(by(push)).to.be.greaterThan(0);
        expect(by(push2)).to.be.greaterThan(0);
        expect((await server.runtime.deps.pushDeliveries.ofHousehold(h.id)).filter((d) => d.state !== 'sent')).to.deep.equal([]);
      } finally {
        for (const p of [push, push2]) for (const sender of p.senders.values()) sender.answer = () => ({ kind: 'sent' });
        await second.close();
      }
    });
  });
});
