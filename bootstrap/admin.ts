#!/usr/bin/env node
/**
 * The admin command for an operator at the server: `npm run admin -- <command>` (or the package's `dinner-admin`
 * bin, `node dist/bootstrap/admin.js`), on the database the environment configures, beside running servers.
 * Commands and exit statuses: bootstrap/admin-commands.ts; 78 for bad settings. A password is read from stdin
 * when it is piped (its first line), else asked for on the terminal without echo.
 */
import { createInterface } from 'node:readline';
import { jsonLogger } from '../adapters/log/json-logger.js';
import { EXIT, runAdmin, type AdminIo } from './admin-commands.js';
import { configOrExit } from './entry.js';
import { createRuntime } from './runtime.js';

let piped: Promise<string> | null = null;
/** The first line of stdin, read once. */
const stdinLine = (): Promise<string> =>
  (piped ??= new Promise((resolve, reject) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (c: string) => (text += c));
    process.stdin.on('end', () => resolve(text.split(/\r?\n/)[0] ?? ''));
    process.stdin.on('error', reject);
  }));

/** Asks on the terminal without echoing what is typed. */
function hiddenPrompt(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let asked = false;
    // readline echoes through _writeToOutput: the prompt goes out, the keystrokes do not.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
      if (!asked) process.stderr.write(s);
    };
    rl.question(prompt, (answer) => {
      process.stderr.write('\n');
      rl.close();
      resolve(answer);
    });
    asked = true;
  });
}

const io: AdminIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
  password: (prompt) => (process.stdin.isTTY ? hiddenPrompt(prompt) : stdinLine()),
};

async function main(): Promise<number> {
  const config = configOrExit();
  // The command's own lines go to stdout; the service's log (warnings and worse) to stderr.
  const logger = jsonLogger(config.logLevel === 'silent' ? 'silent' : 'warn', (l) => process.stderr.write(l));
  const runtime = await createRuntime(config, { logger });
  try {
    return await runAdmin(runtime.deps, process.argv.slice(2), io);
  } finally {
    await runtime.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`admin: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT.refused);
  },
);
