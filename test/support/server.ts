import { loadConfig, type Config } from '../../config/config.js';
import type { Logger } from '../../ports/logger.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../bootstrap/runtime.js';
import { listen } from '../../bootstrap/server.js';
import type { DatabaseKind, TestDatabase } from './databases.js';

/** Log lines the server wrote during a test, parsed. */
export interface CapturedLog {
  readonly lines: Record<string, unknown>[];
  readonly logger: Logger;
}

export function captureLog(): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const push = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push({ level, msg, ...fields });
  };
  return { lines, logger: { debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error'), enabled: () => true } };
}

export interface TestServer {
  readonly url: string;
  readonly runtime: Runtime;
  readonly config: Config;
  readonly database: TestDatabase;
  stop(): Promise<void>;
}

/** Generous limits so that only tests about rate limiting ever meet one. */
export const TEST_RATE_LIMITS = 'auth=10000/60,anonymous-per-ip=10000/60,data-per-ip=10000/60,dinner-price-signup-per-ip=10000/60,backstop=10000/60,token=10000/60';

/**
 * The real service on a free loopback port over a database of its own. `env` is what the environment would
 * say; the database comes from `kind`.
 */
export async function startTestServer(kind: DatabaseKind, env: Record<string, string> = {}, options: RuntimeOptions = {}): Promise<TestServer> {
  const database = await kind.create();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMITS: TEST_RATE_LIMITS,
    BUILD_ID: 'test-build',
    // Hashing at full speed: the tests sign many accounts in one after another, and what a rest between hashes
    // buys (the other requests' latency under a burst of sign-ins) is measured by W7, not tested here.
    PASSWORD_HASH_CPU_PERCENT: '100',
    ...env,
    DATABASE_URL: database.target.kind === 'sqlite' ? `sqlite:${database.target.filename}` : database.target.url,
  });
  const logger = options.logger ?? captureLog().logger;
  const runtime = await createRuntime(config, { ...options, logger, ...(database.schema ? { schema: database.schema } : {}) });
  const running = await listen(runtime, 0, '127.0.0.1');
  return {
    url: running.url,
    runtime,
    config,
    database,
    async stop() {
      await running.stop();
      await database.cleanup();
    },
  };
}
