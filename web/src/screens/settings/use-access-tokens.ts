import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { useAction } from '../../ui';

export type AccessToken = Awaited<ReturnType<typeof readTokens>>[number];
export type NewAccessToken = { name: string; householdId: string; scope: AccessToken['scope']; expiresInDays: number };

const readTokens = () => dataOf(api.GET('/api/v1/me/access-tokens'));

/**
 * The person's personal access tokens: the list as the service answers it (read when the page opens and after each
 * change), and the calls that make one (answering its secret, which is shown once) and revoke one.
 */
export function useAccessTokens() {
  const [tokens, setTokens] = useState<AccessToken[] | null>(null);
  const loading = useAction();
  const reload = async () => setTokens(await readTokens());
  useEffect(() => void loading.run(reload), []);
  return {
    tokens,
    loadError: loading.error,
    /** Makes a token; the list is read again either way (a refusal for the limit may come of tokens made elsewhere). */
    async make(body: NewAccessToken) {
      try {
        return await dataOf(api.POST('/api/v1/me/access-tokens', { body }));
      } finally {
        await reload().catch(() => undefined);
      }
    },
    /** Revokes a token; the list is read again either way (a token revoked elsewhere meanwhile is said, and goes). */
    async revoke(tokenId: string) {
      try {
        await api.DELETE('/api/v1/me/access-tokens/{tokenId}', { params: { path: { tokenId } } });
      } finally {
        await reload().catch(() => undefined);
      }
    },
  };
}
