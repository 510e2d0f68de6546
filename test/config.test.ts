import { availableParallelism } from 'node:os';
import { expect } from 'chai';
import { ConfigError, DEFAULT_RATE_LIMITS, loadConfig } from '../config/config.js';

describe('config', () => {
  it('defaults serve a single household on one machine', () => {
    const c = loadConfig({});
    expect(c).to.deep.include({
      port: 8080,
      host: '127.0.0.1',
      database: { kind: 'sqlite', filename: './data/dinner.db' },
      publicBaseUrl: 'http://localhost:8080',
      problemBaseUrl: 'http://localhost:8080/problems',
      smtpUrl: null,
      mailFrom: 'Dinner <noreply@localhost>',
      mailSweepMs: 5000,
      adminEmails: [],
      trustProxy: false,
      billingWebhookSecret: null,
      appVersionFloor: { ios: null, android: null },
      lockout: { attempts: 10, windowSec: 900, lockSec: 300 },
    });
    expect(c.push.defaultProvider).to.equal('log');
    expect(c.rateLimits).to.deep.equal(DEFAULT_RATE_LIMITS);
    expect(c.rateLimits['dinner-price-signup-per-ip']).to.deep.equal({ points: 5, durationSec: 3600 });
  });

  it('parses the documented forms', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://u:p@db.example:5432/dinner',
      ADMIN_EMAILS: ' Boss@Example.com , ops@example.com',
      APP_VERSION_FLOOR: 'ios=2.3.0,android=2.1.0',
      TRUST_PROXY: 'true',
      SMTP_URL: 'smtp://user:pass@mail.example:587',
      LOCKOUT: '5/60/120',
      PUBLIC_BASE_URL: 'https://dinner.example/',
    });
    expect(c.database).to.deep.equal({ kind: 'postgres', url: 'postgres://u:p@db.example:5432/dinner' });
    expect(c.adminEmails).to.deep.equal(['boss@example.com', 'ops@example.com']);
    expect(c.appVersionFloor).to.deep.equal({ ios: '2.3.0', android: '2.1.0' });
    expect(c.trustProxy).to.equal(true);
    expect(c.lockout).to.deep.equal({ attempts: 5, windowSec: 60, lockSec: 120 });
    expect(c.publicBaseUrl).to.equal('https://dinner.example');
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).to.deep.equal({ kind: 'sqlite', filename: ':memory:' });
  });

  it('RECIPE_LIBRARY is embedded by default, none on request, nothing else', () => {
    expect(loadConfig({}).recipeLibrary).to.equal('embedded');
    expect(loadConfig({ RECIPE_LIBRARY: 'none' }).recipeLibrary).to.equal('none');
    expect(() => loadConfig({ RECIPE_LIBRARY: 'mine' })).to.throw(ConfigError, /RECIPE_LIBRARY/);
  });

  it('scheduled backups are off unless BACKUP_DIR is set, keeping 7 at 03:41 by default', () => {
    expect(loadConfig({}).backup).to.equal(null);
    expect(loadConfig({ BACKUP_DIR: '/var/backups/dinner' }).backup).to.deep.equal({ dir: '/var/backups/dinner', keep: 7, hour: 3 });
    expect(loadConfig({ BACKUP_DIR: 'b', BACKUP_KEEP: '30', BACKUP_HOUR: '23' }).backup).to.deep.equal({ dir: 'b', keep: 30, hour: 23 });
    expect(() => loadConfig({ BACKUP_DIR: 'b', BACKUP_KEEP: '0' })).to.throw(ConfigError, /BACKUP_KEEP/);
    expect(() => loadConfig({ BACKUP_DIR: 'b', BACKUP_HOUR: '24' })).to.throw(ConfigError, /BACKUP_HOUR/);
  });

  it('metrics are off unless METRICS_PORT is set, and on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).to.equal(null);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).to.deep.equal({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).to.deep.equal({ port: 9464, host: '0.0.0.0' });
    expect(() => loadConfig({ METRICS_PORT: 'x' })).to.throw(ConfigError, /METRICS_PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).to.throw(ConfigError, /METRICS_PORT/);
  });

  it('the planner\'s AI is off by default; AI_BASE_URL and AI_MODEL together turn it on', () => {
    expect(loadConfig({}).ai).to.equal(null);
    expect(loadConfig({ AI_BASE_URL: 'http://127.0.0.1:11434/v1/', AI_MODEL: 'llama3' }).ai).to.deep.equal({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: null, monthlyCalls: 100, timeoutMs: 15000 });
    expect(loadConfig({ AI_BASE_URL: 'https://api.openai.com/v1', AI_MODEL: 'gpt-4o-mini', AI_API_KEY: 'sk-x', AI_MONTHLY_CALLS: '0', AI_TIMEOUT_MS: '500' }).ai).to.deep.equal({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'sk-x', monthlyCalls: 0, timeoutMs: 500 });
    for (const [env, variable] of [
      [{ AI_MODEL: 'x' }, 'AI_BASE_URL'],
      [{ AI_API_KEY: 'x' }, 'AI_BASE_URL'],
      [{ AI_BASE_URL: 'http://127.0.0.1:1/v1' }, 'AI_MODEL'],
      [{ AI_BASE_URL: 'ftp://x/v1', AI_MODEL: 'x' }, 'AI_BASE_URL'],
      [{ AI_MONTHLY_CALLS: '-1' }, 'AI_MONTHLY_CALLS'],
      [{ AI_TIMEOUT_MS: '10' }, 'AI_TIMEOUT_MS'],
    ] as const) {
      expect(() => loadConfig(env), JSON.stringify(env)).to.throw(ConfigError, variable);
    }
  });

  it('stops on a malformed or unknown value, naming the variable', () => {
    const cases: Record<string, string> = {
      PORT: '-1',
      DATABASE_URL: 'sqlite:',
      SMTP_URL: 'http://mail.example',
      ADMIN_EMAILS: 'not an address',
      PUSH_PROVIDER: 'carrier-pigeon',
      PUSH_TIMEOUT_MS: 'soon',
      FCM_SERVICE_ACCOUNT: '{not json',
      LOCKOUT: '10/900',
      SQLITE_BUSY_TIMEOUT_MS: 'soon',
      DATABASE_QUERY_TIMEOUT_MS: '-1',
      PROBLEM_BASE_URL: 'problems',
      PASSWORD_HASH_CONCURRENCY: '0',
      PASSWORD_HASH_CPU_PERCENT: '0',
    };
    for (const [name, value] of Object.entries(cases)) {
      expect(() => loadConfig({ [name]: value }), name).to.throw(ConfigError).with.property('variable', name);
    }
  });

  it('PASSWORD_HASH_CONCURRENCY leaves a core to the event loop by default, and takes a whole number', () => {
    expect(loadConfig({}).passwordHashConcurrency).to.equal(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ PASSWORD_HASH_CONCURRENCY: '3' }).passwordHashConcurrency).to.equal(3);
    expect(() => loadConfig({ PASSWORD_HASH_CONCURRENCY: 'two' })).to.throw(ConfigError, /PASSWORD_HASH_CONCURRENCY/);
  });

  it('DATABASE_QUERY_TIMEOUT_MS gives a Postgres statement 30 s by default, and takes 0 for no limit', () => {
    expect(loadConfig({}).postgresQueryTimeoutMs).to.equal(30_000);
    expect(loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '0' }).postgresQueryTimeoutMs).to.equal(0);
    expect(loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '2500' }).postgresQueryTimeoutMs).to.equal(2500);
    for (const bad of ['1.5', 'soon', '3600001']) expect(() => loadConfig({ DATABASE_QUERY_TIMEOUT_MS: bad }), bad).to.throw(ConfigError, /DATABASE_QUERY_TIMEOUT_MS/);
  });

  it('PASSWORD_HASH_CPU_PERCENT caps each hashing thread at a tenth of a core by default, and takes 1 to 100', () => {
    expect(loadConfig({}).passwordHashCpuPercent).to.equal(10);
    expect(loadConfig({ PASSWORD_HASH_CPU_PERCENT: '100' }).passwordHashCpuPercent).to.equal(100);
    for (const bad of ['101', '0.5', 'half']) expect(() => loadConfig({ PASSWORD_HASH_CPU_PERCENT: bad }), bad).to.throw(ConfigError, /PASSWORD_HASH_CPU_PERCENT/);
  });
});
