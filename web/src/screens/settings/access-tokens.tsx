import { useEffect, useRef, useState } from 'preact/hooks';
import { dayOf, momentOf } from '../../format';
import { t } from '../../i18n';
import { me } from '../../state';
import { ActionForm, AskFirst, ChoiceRow, Field, fieldsOf, Problem, useAction } from '../../ui';
import { SettingsPage } from './settings-page';
import { useAccessTokens, type AccessToken, type NewAccessToken } from './use-access-tokens';

/** The lifetimes offered, in days; the service's default (90) is chosen first. */
const LIFETIMES = [7, 30, 90, 365] as const;
const SCOPES = ['read', 'read-write'] as const;

/**
 * Personal access tokens: what one is, a form that makes one for one of the person's households, the secret shown
 * once with a button that copies it, and the person's tokens with their household, scope, dates and last use, each
 * revoked after a question.
 */
export function AccessTokensPage({ householdId }: { householdId: string }) {
  const m = t.value;
  const tokens = useAccessTokens();
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);
  // What the last revocation came to: its token's name, or its failure (said above the list, as the row may be gone).
  const [outcome, setOutcome] = useState<{ revoked: string } | { error: unknown } | null>(null);
  const revoke = async (token: AccessToken) => {
    setOutcome(null);
    try {
      await tokens.revoke(token.id);
      setOutcome({ revoked: token.name });
    } catch (error) {
      setOutcome({ error });
      throw error;
    }
  };
  return (
    <SettingsPage title={m.settingsSection.tokens}>
      <p>{m.tokensAbout}</p>
      <p class="muted">
        {m.tokensHowTo} <a href="/api/docs">{m.apiDocs}</a>.
      </p>
      <p class="muted">
        {m.tokensAssistant} <code>{`${location.origin}/mcp`}</code>
      </p>
      {made ? (
        <MadeToken name={made.name} secret={made.secret} onDone={() => setMade(null)} />
      ) : (
        <MakeToken
          householdId={householdId}
          onMake={async (body) => {
            setOutcome(null);
            const answer = await tokens.make(body);
            setMade({ name: answer.token.name, secret: answer.secret });
          }}
        />
      )}
      <TokenList tokens={tokens.tokens} error={tokens.loadError ?? (outcome && 'error' in outcome ? outcome.error : null)} revoked={outcome && 'revoked' in outcome ? outcome.revoked : null} onRevoke={revoke} />
    </SettingsPage>
  );
}

function MakeToken({ householdId, onMake }: { householdId: string; onMake: (body: NewAccessToken) => Promise<void> }) {
  const m = t.value;
  const memberships = me.value?.memberships ?? [];
  const [name, setName] = useState('');
  const [household, setHousehold] = useState(householdId);
  const [scope, setScope] = useState<NewAccessToken['scope']>('read');
  const [days, setDays] = useState(90);
  const action = useAction();
  const nameWrong = fieldsOf(action.error).includes('name');
  return (
    <section aria-labelledby="new-token-h">
      <h2 id="new-token-h">{m.newToken}</h2>
      <ActionForm action={action} button={m.makeToken} onSubmit={() => onMake({ name: name.trim(), householdId: household, scope, expiresInDays: days })}>
        <Field
          label={m.tokenName}
          name="token-name"
          required
          maxLength={80}
          value={name}
          aria-describedby={nameWrong ? 'f-token-name-err token-name-hint' : 'token-name-hint'}
          invalid={nameWrong ? m.tokenNameInvalid : null}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <p id="token-name-hint" class="muted hint">
          {m.tokenNameHint}
        </p>
        {memberships.length > 1 && (
          <div class="field">
            <label for="token-household">{m.tokenHousehold}</label>
            <select id="token-household" value={household} onChange={(e) => setHousehold(e.currentTarget.value)}>
              {memberships.map((h) => (
                <option key={h.householdId} value={h.householdId}>
                  {h.householdName}
                </option>
              ))}
            </select>
          </div>
        )}
        <ChoiceRow id="token-scope" name="token-scope" legend={m.tokenScope} choices={SCOPES} label={(s) => m.tokenScopes[s]} value={scope} onChange={setScope} hint={m.tokenScopeHint} />
        <div class="field">
          <label for="token-days">{m.tokenLifetime}</label>
          <select id="token-days" value={String(days)} onChange={(e) => setDays(Number(e.currentTarget.value))}>
            {LIFETIMES.map((d) => (
              <option key={d} value={String(d)}>
                {m.tokenDays(d)}
              </option>
            ))}
          </select>
        </div>
      </ActionForm>
    </section>
  );
}

/** The secret of a token just made, shown this once: in a read-only box to select, with a button that copies it. */
function MadeToken({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const m = t.value;
  const heading = useRef<HTMLHeadingElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  // The panel takes the place of the form: focus moves to its heading, so a screen reader says what happened.
  useEffect(() => heading.current?.focus(), []);
  const copySecret = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopy('copied');
    } catch {
      box.current?.select();
      setCopy('failed');
    }
  };
  return (
    <section aria-labelledby="made-token-h" class="ask made-token">
      <h2 id="made-token-h" tabIndex={-1} ref={heading}>
        {m.tokenMadeTitle}
      </h2>
      <p>{m.tokenMadeAbout}</p>
      <div class="field">
        <label for="token-secret">{m.tokenSecret(name)}</label>
        <textarea id="token-secret" class="secret" readOnly rows={2} value={secret} ref={box} spellcheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
      </div>
      <div class="row">
        <button type="button" onClick={() => void copySecret()}>
          {m.copy}
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          {m.tokenCopiedDone}
        </button>
      </div>
      <p role="status" class={copy === 'failed' ? 'problem' : 'muted'}>
        {copy === 'copied' ? m.copied : copy === 'failed' ? m.copyFailed : ''}
      </p>
    </section>
  );
}

/** The person's tokens; after a revocation, focus is on the list's heading (the row pressed is gone) and the outcome is said. */
function TokenList(props: { tokens: readonly AccessToken[] | null; error: unknown; revoked: string | null; onRevoke: (token: AccessToken) => Promise<void> }) {
  const m = t.value;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.revoked) heading.current?.focus();
  }, [props.revoked]);
  return (
    <section aria-labelledby="tokens-h">
      <h2 id="tokens-h" tabIndex={-1} ref={heading}>
        {m.yourTokens}
      </h2>
      <Problem error={props.error} />
      <p role="status">{props.revoked ? m.tokenRevoked(props.revoked) : ''}</p>
      {props.tokens && props.tokens.length === 0 && <p>{m.noTokens}</p>}
      {props.tokens && props.tokens.length > 0 && (
        <ul class="items tokens">
          {props.tokens.map((token) => (
            <TokenRow key={token.id} token={token} onRevoke={props.onRevoke} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a token's row says of it after its name: its household, scope, dates and last use (or why it no longer works). */
function factsOf(token: AccessToken): string[] {
  const m = t.value;
  const state =
    token.state === 'not-a-member' ? m.tokenNotMember : token.state === 'expired' ? m.tokenExpiredOn(dayOf(token.expiresAt)) : m.tokenWorksUntil(dayOf(token.expiresAt));
  return [token.householdName, m.tokenScopes[token.scope], m.tokenMadeOn(dayOf(token.createdAt)), state, token.lastUsedAt ? m.tokenLastUsed(momentOf(token.lastUsedAt)) : m.tokenNeverUsed];
}

function TokenRow({ token, onRevoke }: { token: AccessToken; onRevoke: (token: AccessToken) => Promise<void> }) {
  const m = t.value;
  const [asking, setAsking] = useState(false);
  const act = useAction();
  const facts = factsOf(token);
  return (
    <li>
      <span>
        <strong>{token.name}</strong>
        <span class="reason">
          {facts.slice(0, 3).join(' · ')}
          <br />
          <span class={token.state === 'active' ? undefined : 'problem'}>{facts[3]}</span> · {facts[4]}
        </span>
      </span>
      {asking ? (
        <AskFirst
          id={`revoke-${token.id}`}
          question={m.revokeTokenQuestion(token.name)}
          yes={m.yesRevokeToken}
          danger
          busy={act.busy}
          onYes={() => void act.run(() => onRevoke(token))}
          onCancel={() => setAsking(false)}
        />
      ) : (
        <button type="button" class="link" aria-label={m.revokeTokenOf(token.name)} onClick={() => setAsking(true)}>
          {m.revokeToken}
        </button>
      )}
    </li>
  );
}
