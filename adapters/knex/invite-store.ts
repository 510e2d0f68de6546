import type { Knex } from 'knex';
import type { Invite, InviteStore } from '../../ports/invite-store.js';
import { translated } from './errors.js';
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
  return translated<InviteStore>({
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
    async markUsed(code, accountId, at) {
      return (await knex('household_invites').where({ code }).whereNull('used_at').update({ used_at: iso(at), used_by: accountId })) === 1;
    },
    async unlinkMember(householdId, memberId) {
      await knex('household_invites').where({ household_id: householdId, member_id: memberId }).update({ member_id: null });
    },
  });
}
