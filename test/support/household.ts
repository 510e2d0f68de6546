import { expect } from 'chai';
import { signedInClient, type Client } from './client.js';

/**
 * A household of a fresh Owner, and `join(role)` that brings in another account through an invite code, as the
 * apps do. Answers the household's id, the Owner's member id and the base path of its routes.
 */
export async function ownedHousehold(serverUrl: string, name = 'Hansen') {
  const owner = await signedInClient(serverUrl, 'Owner');
  const h = (await owner.client.post('/api/v1/households', { name })).json;
  const base = `/api/v1/households/${h.id}`;
  const join = async (role: 'Adult' | 'Junior', displayName: string = role): Promise<{ client: Client; memberId: string }> => {
    const { client } = await signedInClient(serverUrl, displayName);
    const code = (await owner.client.post(`${base}/invites`, { role })).json.code;
    const res = await client.post('/api/v1/invites/accept', { code });
    expect(res.status, res.text).to.equal(200);
    return { client, memberId: res.json.memberId as string };
  };
  return { owner: owner.client, id: h.id as string, ownerMemberId: h.members[0].id as string, base, join };
}
