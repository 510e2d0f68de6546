import type { Knex } from 'knex';
import type { Member } from '../../core/households/types.js';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { memberRow, toMember, type MemberRow } from './household-store.js';
import { outboxRow } from './push-outbox.js';
import { iso, rowMapping } from './rows.js';

interface InviteRow {
  code: string;
  household_id: string;
  role: string;
  member_id: string | null;
  created_by: string;
  created_at: Date | string;
  expires_at: Date | string;
  used_at: Date | string | null;
  used_by: string | null;
}

const inviteMapping = rowMapping<Invite>({
  code: 'as-is',
  householdId: 'as-is',
  role: 'as-is',
  memberId: 'as-is',
  createdBy: 'as-is',
  createdAt: 'instant',
  expiresAt: 'instant',
  usedAt: 'optional-instant',
  usedBy: 'as-is',
});
const toInvite = (r: InviteRow): Invite => inviteMapping.fromRow(r);

export function knexInviteStore(knex: Knex): InviteStore {
  return translated<InviteStore>(knex, {
    async create(i) {
      // A new code is unused.
      await knex('household_invites').insert(inviteMapping.toRow({ ...i, usedAt: null, usedBy: null }));
    },
    async byCode(code) {
      const row = (await knex<InviteRow>('household_invites').where({ code }).first()) as InviteRow | undefined;
      return row ? toInvite(row) : null;
    },
    async listOpen(householdId, now) {
      const rows = (await knex<InviteRow>('household_invites')
        .where({ household_id: householdId })
        .whereNull('used_at')
        .andWhere('expires_at', '>', iso(now))
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'code' }])) as InviteRow[];
      return rows.map(toInvite);
    },
    async listSince(householdId, since) {
      const rows = (await knex<InviteRow>('household_invites')
        .where({ household_id: householdId })
        .andWhere((q) => q.where((unused) => unused.whereNull('used_at').andWhere('expires_at', '>', iso(since))).orWhere('used_at', '>', iso(since)))
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'code' }])) as InviteRow[];
      return rows.map(toInvite);
    },
    async delete(householdId, code) {
      return (await knex('household_invites').where({ household_id: householdId, code }).delete()) === 1;
    },
    async accept(use) {
      try {
        return await knex.transaction(async (trx) => {
          const invite = (await trx<InviteRow>('household_invites').where({ code: use.code }).first()) as InviteRow | undefined;
          if (!invite) return 'code-used' as const;
          const householdId = invite.household_id;
          if (await trx('household_members').where({ household_id: householdId, account_id: use.accountId }).first()) return 'member-already' as const;
          // The conditional update decides between simultaneous uses: the later one finds used_at set.
          const used = await trx('household_invites').where({ code: use.code }).whereNull('used_at').update({ used_at: iso(use.at), used_by: use.accountId });
          if (used !== 1) return 'code-used' as const;
          let member: Member | null = null;
          if (invite.member_id !== null) {
            const claimed = await trx('household_members')
              .where({ household_id: householdId, id: invite.member_id })
              .whereNull('account_id')
              .update({ account_id: use.accountId, role: invite.role });
            if (claimed === 1) member = toMember((await trx<MemberRow>('household_members').where({ id: invite.member_id }).first()) as MemberRow);
          }
          if (member === null) {
            const row = memberRow(householdId, use.newMember);
            await trx('household_members').insert(row);
            member = toMember(row);
          }
          await trx('push_outbox').insert(outboxRow(use.joined(member)));
          return member;
        });
      } catch (err) {
        // A simultaneous join of the same account (unique household_id, account_id) rolled this one back.
        if (isUniqueViolation(err)) {
          const invite = (await knex<InviteRow>('household_invites').where({ code: use.code }).first()) as InviteRow | undefined;
          if (invite && (await knex('household_members').where({ household_id: invite.household_id, account_id: use.accountId }).first())) return 'member-already';
        }
        throw err;
      }
    },
    async unlinkMember(householdId, memberId) {
      await knex('household_invites').where({ household_id: householdId, member_id: memberId }).update({ member_id: null });
    },
  });
}
