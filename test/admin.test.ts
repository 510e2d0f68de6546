import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { EXIT, runAdmin, type AdminIo } from '../bootstrap/admin-commands.js';
import { Client, signedInClient } from './support/client.js';
import { databaseKinds } from './support/databases.js';
import { startTestServer, type TestServer } from './support/server.js';

/** The admin command's lines, complaints and the password it is handed, for one run. */
function capture(password = 'a fine new password') {
  const out: string[] = [];
  const err: string[] = [];
  const io: AdminIo = { out: (l) => out.push(l), err: (l) => err.push(l), password: async () => password };
  return { io, out, err };
}

for (const kind of databaseKinds()) {
  describe(`the admin command [${kind.name}]`, function () {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(kind);
    });
    after(async () => server.stop());
    const admin = async (argv: string[], password?: string) => {
      const c = capture(password);
      const status = await runAdmin(server.runtime.deps, argv, c.io);
      return { status, ...c };
    };
    const unique = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;

    it('creates a user who can sign in, confirmed when asked, and refuses a taken address, a bad address, name or password', async () => {
      const email = unique('kari');
      const made = await admin(['create-user', email, 'Kari Nordmann', '--confirmed', '--language', 'en'], 'correct horse battery');
      expect(made.status, made.err.join('\n')).to.equal(EXIT.done);
      expect(made.out).to.have.length(1);
      expect(made.out[0]).to.match(new RegExp(`^created user ${email.replace(/\./g, '\\.')} \\([0-9a-f-]{36}\\), "Kari Nordmann", address confirmed$`));
      const login = await new Client(server.url).post('/api/v1/auth/login', { email, password: 'correct horse battery' });
      expect(login.status).to.equal(200);
      expect(login.json.user.displayName).to.equal('Kari Nordmann');
      expect(login.json).to.include({ emailConfirmed: true });
      const plain = unique('ola');
      expect((await admin(['create-user', plain, 'Ola'], 'correct horse battery')).out[0]).to.contain('address not confirmed');

      for (const [argv, password, reason] of [
        [['create-user', email, 'Again'], 'correct horse battery', `an account already has the address ${email}`],
        [['create-user', 'not-an-address', 'X'], 'correct horse battery', '"not-an-address" is not an e-mail address'],
        [['create-user', unique('x'), '   '], 'correct horse battery', 'the name must be 1 to 80 characters'],
        [['create-user', unique('x'), 'X'], 'short', 'the password must be at least 8 characters'],
        [['create-user', unique('x'), 'X'], 'password', 'that password is known from data breaches: choose another'],
        [['create-user', unique('x'), 'X'], 'x'.repeat(257), 'the password must be at most 256 characters'],
      ] as const) {
        const r = await admin([...argv], password);
        expect([r.status, r.err, r.out]).to.deep.equal([EXIT.refused, [reason], []]);
      }
    });

    it('confirms an address, once', async () => {
      const { client, email } = await signedInClient(server.url, 'Per');
      expect((await client.get('/api/v1/me')).json.emailConfirmed).to.equal(false);
      expect((await admin(['confirm-email', email])).out).to.deep.equal([`${email}: address confirmed`]);
      expect((await client.get('/api/v1/me')).json.emailConfirmed).to.equal(true);
      expect((await admin(['confirm-email', email.toUpperCase()])).out).to.deep.equal([`${email}: already confirmed, nothing changed`]);
      const unknown = await admin(['confirm-email', unique('nobody')]);
      expect(unknown.status).to.equal(EXIT.refused);
      expect(unknown.err[0]).to.match(/^no account has the address /);
    });

    it('sets a new password: every session ends at once, the new password signs in and the lock is gone', async () => {
      const { client, email, password } = await signedInClient(server.url, 'Liv');
      const other = new Client(server.url);
      expect((await other.post('/api/v1/auth/login', { email, password })).status).to.equal(200);
      // Locked by wrong passwords first (test lockout: the default 10 within 15 minutes).
      for (let i = 0; i < 10; i++) await new Client(server.url).post('/api/v1/auth/login', { email, password: 'wrong password!' });
      expect((await new Client(server.url).post('/api/v1/auth/login', { email, password })).status).to.equal(423);
      const r = await admin(['set-password', email], 'a brand new secret');
      expect([r.status, r.out]).to.deep.equal([EXIT.done, [`${email}: password set; every session of the account has ended`]]);
      expect((await client.get('/api/v1/me')).status).to.equal(401);
      expect((await other.get('/api/v1/me')).status).to.equal(401);
      expect((await new Client(server.url).post('/api/v1/auth/login', { email, password })).status).to.equal(401);
      expect((await new Client(server.url).post('/api/v1/auth/login', { email, password: 'a brand new secret' })).status).to.equal(200);
      const weak = await admin(['set-password', email], 'short');
      expect([weak.status, weak.err]).to.deep.equal([EXIT.refused, ['the password must be at least 8 characters']]);
      expect((await admin(['set-password', unique('nobody')], 'a brand new secret')).status).to.equal(EXIT.refused);
    });

    it('unlocks a locked address, and says so when it was not locked', async () => {
      const { email, password } = await signedInClient(server.url, 'Siri');
      for (let i = 0; i < 10; i++) await new Client(server.url).post('/api/v1/auth/login', { email, password: 'wrong password!' });
      expect((await new Client(server.url).post('/api/v1/auth/login', { email, password })).status).to.equal(423);
      const r = await admin(['unlock', email]);
      expect(r.status).to.equal(EXIT.done);
      expect(r.out[0]).to.match(new RegExp(`^${email.replace(/\./g, '\\.')}: unlocked \\(it was locked until \\d{4}-\\d{2}-\\d{2}T`));
      expect((await new Client(server.url).post('/api/v1/auth/login', { email, password })).status).to.equal(200);
      expect((await admin(['unlock', email])).out).to.deep.equal([`${email}: was not locked; wrong-password count cleared`]);
      expect((await admin(['unlock', 'nope'])).err).to.deep.equal(['"nope" is not an e-mail address']);
    });

    it('lists the households with their members, and deletes a user with the API\'s rules', async () => {
      const owner = await signedInClient(server.url, 'Eier');
      const h = (await owner.client.post('/api/v1/households', { name: 'Admin-testen' })).json;
      await owner.client.post(`/api/v1/households/${h.id}/members`, { displayName: 'Lille', role: 'Junior' });
      const adult = await signedInClient(server.url, 'Voksen');
      const code = (await owner.client.post(`/api/v1/households/${h.id}/invites`, { role: 'Adult' })).json.code;
      await adult.client.post('/api/v1/invites/accept', { code });
      const listed = await admin(['households']);
      expect(listed.status).to.equal(EXIT.done);
      const at = listed.out.findIndex((l) => l.startsWith(h.id));
      expect(listed.out[at]).to.match(new RegExp(`^${h.id}  "Admin-testen"  Free  Europe/Oslo  created \\d{4}-`));
      expect(listed.out.slice(at + 1, at + 4)).to.deep.equal([`  Owner   "Eier"  ${owner.email}`, '  Junior  "Lille"  (no login)', `  Adult   "Voksen"  ${adult.email}`]);
      expect(listed.out[listed.out.length - 1]).to.match(/^\d+ households?$/);

      // The only Owner of a household others use: refused, as the API refuses it.
      const refused = await admin(['delete-user', owner.email, '--yes']);
      expect([refused.status, refused.err]).to.deep.equal([EXIT.refused, [`${owner.email} is the only Owner of a household others still use: make another member Owner first`]]);
      const asked = await admin(['delete-user', adult.email]);
      expect(asked.status).to.equal(EXIT.usage);
      expect((await adult.client.get('/api/v1/me')).status).to.equal(200);
      const gone = await admin(['delete-user', adult.email, '--yes']);
      expect(gone.out[0]).to.match(/households deleted with it: 0; left: 1$/);
      expect((await adult.client.get('/api/v1/me')).status).to.equal(401);
      const last = await admin(['delete-user', owner.email, '--yes']);
      expect(last.out[0]).to.match(/households deleted with it: 1; left: 0$/);
      expect((await admin(['households'])).out.some((l) => l.startsWith(h.id))).to.equal(false);
    });

    it('pauses and lifts a household\'s AI', async () => {
      const owner = await signedInClient(server.url, 'Eier');
      const h = (await owner.client.post('/api/v1/households', { name: 'AI' })).json;
      const until = new Date(Date.now() + 86_400_000);
      expect((await admin(['ai-pause', h.id, until.toISOString()])).out).to.deep.equal([`${h.id}: AI paused until ${until.toISOString()}`]);
      expect(await server.runtime.deps.aiQuota.pausedUntil(h.id, new Date())).to.deep.equal(until);
      expect((await admin(['ai-pause', h.id, 'off'])).out).to.deep.equal([`${h.id}: AI not paused`]);
      expect(await server.runtime.deps.aiQuota.pausedUntil(h.id, new Date())).to.equal(null);
      expect((await admin(['ai-pause', h.id, 'tomorrow'])).status).to.equal(EXIT.usage);
      expect((await admin(['ai-pause', '00000000-0000-4000-8000-000000000000', 'off'])).err).to.deep.equal(['no household has the id 00000000-0000-4000-8000-000000000000']);
    });

    it('answers bad usage with the reason and the usage, and changes nothing', async () => {
      for (const [argv, first] of [
        [[], 'no command given'],
        [['make-coffee'], 'unknown command make-coffee'],
        [['unlock'], 'unlock takes 1 argument'],
        [['households', 'extra'], 'households takes 0 arguments'],
        [['unlock', 'a@example.com', '--force'], 'unknown option --force'],
        [['confirm-email', 'a@example.com', '--language', 'en'], '--language goes with create-user only'],
        [['create-user', 'a@example.com', 'A', '--language', 'de'], '--language is nb or en'],
      ] as const) {
        const r = await admin([...argv]);
        expect(r.status, argv.join(' ')).to.equal(EXIT.usage);
        expect(r.err[0]).to.equal(first);
        expect(r.err[1]).to.match(/^usage: npm run admin/);
        expect(r.out).to.deep.equal([]);
      }
      expect(await server.runtime.deps.accounts.byEmail('a@example.com')).to.equal(null);
    });
  });
}

describe('the admin command as a process', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer(databaseKinds()[0]!);
  });
  after(async () => server.stop());

  const run = (args: string[], stdin: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const target = server.database.target;
      const env = { ...process.env, DATABASE_URL: target.kind === 'sqlite' ? `sqlite:${target.filename}` : target.url, LOG_LEVEL: 'silent' };
      const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/admin.ts', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });

  it('reads the password from stdin, prints what it changed, and exits 0, 1 or 64', async () => {
    const email = `piped.${Date.now()}@example.com`;
    const made = await run(['create-user', email, 'Piped'], 'a piped password\n');
    expect([made.code, made.stderr]).to.deep.equal([0, '']);
    expect(made.stdout).to.match(/^created user piped\.\d+@example\.com \([0-9a-f-]{36}\), "Piped", address not confirmed\n$/);
    expect((await new Client(server.url).post('/api/v1/auth/login', { email, password: 'a piped password' })).status).to.equal(200);
    const again = await run(['create-user', email, 'Piped'], 'a piped password\n');
    expect([again.code, again.stdout, again.stderr]).to.deep.equal([1, '', `an account already has the address ${email}\n`]);
    const usage = await run(['frobnicate'], '');
    expect(usage.code).to.equal(64);
    expect(usage.stderr.split('\n')[0]).to.equal('unknown command frobnicate');
    const badConfig = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bootstrap/admin.ts', 'households'], { env: { ...process.env, DATABASE_URL: 'mysql://nope' }, stdio: 'ignore' });
      child.on('exit', resolve);
    });
    expect(badConfig).to.equal(78);
  });
});
