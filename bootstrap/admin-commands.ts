import {
  operatorConfirmEmail,
  operatorCreateUser,
  operatorDeleteUser,
  operatorHouseholds,
  operatorSetPassword,
  operatorUnlock,
  type OperatorDeps,
  type OperatorRefusal,
} from '../core/operator/commands.js';
import { guessableBuiltFrom } from '../core/accounts/guessable-passwords.js';
import type { AiQuotaStore } from '../ports/planner-ai.js';
import type { HouseholdStore } from '../ports/household-store.js';

/** How the command talks: its lines, its one-line complaints, and the password it is given (stdin or a prompt). */
export interface AdminIo {
  out(line: string): void;
  err(line: string): void;
  password(prompt: string): Promise<string>;
}

export const USAGE = [
  'usage: npm run admin -- <command> [arguments]   (or: dinner-admin <command>)',
  '  create-user EMAIL NAME [--confirmed] [--language nb|en]   a new account; its password is read from stdin',
  '  confirm-email EMAIL                                        mark the address confirmed',
  '  set-password EMAIL                                         a new password from stdin; every session of the account ends',
  '  unlock EMAIL                                               lift the wrong-password lock of an address',
  '  households                                                 every household and its members',
  '  delete-user EMAIL --yes                                    delete the account as DELETE /api/v1/me does',
  '  ai-pause HOUSEHOLD_ID UNTIL|off                            pause the household\'s planner AI until a time (ISO 8601), or lift the pause',
].join('\n');

/** Exit statuses: done, refused (the reason on one line), bad usage (EX_USAGE). */
export const EXIT = { done: 0, refused: 1, usage: 64 } as const;

const said: { readonly [K in OperatorRefusal['type']]: (r: Extract<OperatorRefusal, { type: K }>) => string } = {
  'no-such-user': (r) => `no account has the address ${r.email}`,
  'not-an-address': (r) => `"${r.email}" is not an e-mail address`,
  'address-taken': (r) => `an account already has the address ${r.email}`,
  'name-length': () => 'the name must be 1 to 80 characters',
  'password-too-short': () => 'the password must be at least 8 characters',
  'password-too-long': () => 'the password must be at most 256 characters',
  'password-breached': () => 'that password is known from data breaches: choose another',
  'password-guessable': (e) => `that password is built only from ${guessableBuiltFrom(e.reason)}: choose another`,
  'owner-required': (r) => `${r.email} is the only Owner of a household others still use: make another member Owner first`,
};
const reasonOf = (r: OperatorRefusal): string => (said[r.type] as (r: OperatorRefusal) => string)(r);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One admin command against the service's stores (bootstrap/admin.ts gives it the runtime of the configured
 * database). Prints what it changed; a refusal or bad usage is one line on err and a non-zero status.
 */
export async function runAdmin(deps: OperatorDeps & { households: HouseholdStore; aiQuota: AiQuotaStore }, argv: readonly string[], io: AdminIo): Promise<number> {
  const flags = new Set(argv.filter((a) => a.startsWith('--') && a !== '--language'));
  const languageAt = argv.indexOf('--language');
  const language = languageAt >= 0 ? argv[languageAt + 1] : undefined;
  const words = argv.filter((a, i) => !a.startsWith('--') && !(languageAt >= 0 && i === languageAt + 1));
  const [command, ...args] = words;
  const usage = (why: string) => {
    io.err(why);
    io.err(USAGE);
    return EXIT.usage;
  };
  const refused = (r: OperatorRefusal) => {
    io.err(reasonOf(r));
    return EXIT.refused;
  };
  const allowed: Record<string, readonly string[]> = { 'create-user': ['--confirmed'], 'delete-user': ['--yes'] };
  const unknownFlag = [...flags].find((f) => !(allowed[command ?? ''] ?? []).includes(f));
  if (unknownFlag) return usage(`unknown option ${unknownFlag}`);
  if (languageAt >= 0 && command !== 'create-user') return usage('--language goes with create-user only');
  const arity: Record<string, number> = { 'create-user': 2, 'confirm-email': 1, 'set-password': 1, unlock: 1, households: 0, 'delete-user': 1, 'ai-pause': 2 };
  if (command === undefined || !(command in arity)) return usage(command === undefined ? 'no command given' : `unknown command ${command}`);
  if (args.length !== arity[command]) return usage(`${command} takes ${arity[command]} argument${arity[command] === 1 ? '' : 's'}`);

  switch (command) {
    case 'create-user': {
      if (language !== undefined && language !== 'nb' && language !== 'en') return usage('--language is nb or en');
      const password = await io.password(`Password for ${args[0]}: `);
      const r = await operatorCreateUser(deps, { email: args[0]!, displayName: args[1]!, password, ...(language ? { language } : {}), confirmed: flags.has('--confirmed') });
      if (!r.ok) return refused(r.error);
      io.out(`created user ${r.value.email} (${r.value.id}), "${r.value.displayName}", address ${r.value.emailConfirmed ? 'confirmed' : 'not confirmed'}`);
      return EXIT.done;
    }
    case 'confirm-email': {
      const r = await operatorConfirmEmail(deps, args[0]!);
      if (!r.ok) return refused(r.error);
      io.out(r.value.already ? `${r.value.account.email}: already confirmed, nothing changed` : `${r.value.account.email}: address confirmed`);
      return EXIT.done;
    }
    case 'set-password': {
      const password = await io.password(`New password for ${args[0]}: `);
      const r = await operatorSetPassword(deps, args[0]!, password);
      if (!r.ok) return refused(r.error);
      io.out(`${r.value.email}: password set; every session of the account has ended`);
      return EXIT.done;
    }
    case 'unlock': {
      const r = await operatorUnlock(deps, args[0]!);
      if (!r.ok) return refused(r.error);
      io.out(r.value.lockedUntil ? `${args[0]}: unlocked (it was locked until ${r.value.lockedUntil.toISOString()})` : `${args[0]}: was not locked; wrong-password count cleared`);
      return EXIT.done;
    }
    case 'households': {
      let n = 0;
      for await (const { household: h, members } of operatorHouseholds(deps)) {
        n++;
        io.out(`${h.id}  ${JSON.stringify(h.name)}  ${h.plan}  ${h.timeZoneId}  created ${h.createdAt.toISOString()}`);
        for (const { member: m, email } of members) io.out(`  ${m.role.padEnd(6)}  ${JSON.stringify(m.displayName)}  ${email ?? '(no login)'}`);
      }
      io.out(n === 1 ? '1 household' : `${n} households`);
      return EXIT.done;
    }
    case 'delete-user': {
      if (!flags.has('--yes')) return usage(`delete-user deletes ${args[0]} and every household only it uses: add --yes to do it`);
      const r = await operatorDeleteUser(deps, args[0]!);
      if (!r.ok) return refused(r.error);
      io.out(`deleted user ${r.value.account.email} (${r.value.account.id}); households deleted with it: ${r.value.householdsDeleted}; left: ${r.value.householdsLeft}`);
      return EXIT.done;
    }
    case 'ai-pause': {
      const [householdId, until] = [args[0]!, args[1]!];
      if (!UUID.test(householdId)) return usage(`${householdId} is not a household id`);
      const end = until === 'off' ? null : new Date(until);
      if (end !== null && (Number.isNaN(end.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(until))) return usage(`${until} is not a time (ISO 8601, e.g. 2026-12-01T00:00:00Z) or off`);
      if (!(await deps.households.byId(householdId))) {
        io.err(`no household has the id ${householdId}`);
        return EXIT.refused;
      }
      await deps.aiQuota.pause(householdId, end !== null && end > deps.clock.now() ? end : null);
      io.out(end !== null && end > deps.clock.now() ? `${householdId}: AI paused until ${end.toISOString()}` : `${householdId}: AI not paused`);
      return EXIT.done;
    }
  }
  return usage(`unknown command ${command}`);
}
