import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { anyOf, offlineBreachedPasswords, rangeApiBreachedPasswords } from '../adapters/passwords/breached-passwords.js';
import { captureLog } from './support/server.js';

describe('breached passwords', () => {
  it('the offline list knows common breached passwords, case-insensitively, and not a passphrase', async () => {
    const offline = offlineBreachedPasswords();
    for (const p of ['password', 'Password1', 'iloveyou', '12345678', 'qwertyuiop']) expect(await offline.isBreached(p), p).to.equal(true);
    for (const p of ['correct horse battery', 'tallerken-sommer-fjord-42']) expect(await offline.isBreached(p), p).to.equal(false);
  });

  describe('the k-anonymity range API', () => {
    let server: Server;
    let url: string;
    const asked: string[] = [];
    const breached = 'a very specific secret';
    const sha1 = createHash('sha1').update(breached).digest('hex').toUpperCase();
    before(async () => {
      server = createServer((req, res) => {
        asked.push(req.url!);
        if (req.url!.endsWith('FFFFF')) return void res.writeHead(503).end();
        const prefix = req.url!.slice(-5);
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end(prefix === sha1.slice(0, 5) ? `0000000000000000000000000000000000A:0\r\n${sha1.slice(5)}:42\r\n` : '00000000000000000000000000000000000:1\r\n');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('sends only the first five characters of the SHA-1 and finds the suffix', async () => {
      const api = rangeApiBreachedPasswords(url, captureLog().logger);
      expect(await api.isBreached(breached)).to.equal(true);
      expect(await api.isBreached('something else entirely')).to.equal(false);
      expect(asked[0]).to.equal(`/range/${sha1.slice(0, 5)}`);
      expect(asked.every((a) => /^\/range\/[0-9A-F]{5}$/.test(a))).to.equal(true);
    });

    it('never blocks a password when the API fails, and the offline list still applies', async () => {
      const log = captureLog();
      const down = rangeApiBreachedPasswords('http://127.0.0.1:9/range/', log.logger, 500);
      expect(await down.isBreached(breached)).to.equal(false);
      expect(log.lines.some((l) => l['level'] === 'warn')).to.equal(true);
      expect(await anyOf(offlineBreachedPasswords(), down).isBreached('password')).to.equal(true);
    });
  });
});
