import type { Knex } from 'knex';
import type { Member } from '../../core/households/types.js';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import { isUniqueViolation, translated } from './errors.js';
import { memberRow, toMember, type MemberRow } from './household-store.js';
import { outboxRow } from './push-outbox.js';
import { iso, toDate } from './rows.js';

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

const toInvite = (r: InviteRow): Invite => ({
  code: r.code,
  householdId: r.household_id,
  role: r.role as Invite['role'],
  memberId: r.member_id,
  createdBy: r.created_by,
  createdAt: toDate(r.created_at),
  expiresAt: toDate(r.expires_at),
  usedAt: r.used_at === null ? null : toDate(r.used_at),
  usedBy: r.used_by,
});

export function knexInviteStore(knex: Knex): InviteStore {
  return translated<InviteStore>(knex, {
    async create(i) {
      await knex('household_invites').insert({
        code: i.code,
        household_id: i.householdId,
        role: i.role,
        member_id: i.memberId,
        created_by: i.createdBy,
        created_at: iso(i.createdAt),
        expires_at: iso(i.expiresAt),
        used_at: null,
        used_by: null,
      });
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
            const m = use.newMember;
            await trx('household_members').insert(memberRow(householdId, m));
            member = { ...m, householdId };
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
