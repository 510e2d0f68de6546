import type { Config } from '../../config/config.js';
import type { SignInProviders } from '../../core/accounts/social.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { EXTERNAL_CALLBACK_PATH } from '../http/routes/social.js';
import { joseNativeIdentityTokens } from './native-tokens.js';
import { s256Pkce } from './pkce.js';
import { openIdSocialSignIn } from './social-sign-in.js';

/** The sign-in providers of the configuration: OpenID Connect (AUTH_PROVIDERS) and native tokens (IDP_NATIVE_*). */
export function signInProviders(
  config: Pick<Config, 'authProviders' | 'appRedirectUris' | 'idpNative' | 'publicBaseUrl'>,
  logger: Logger,
  clock: Clock,
): SignInProviders {
  return {
    social: openIdSocialSignIn({ providers: config.authProviders, redirectUri: `${config.publicBaseUrl}${EXTERNAL_CALLBACK_PATH}`, logger }),
    nativeIdp: config.idpNative ? joseNativeIdentityTokens(config.idpNative, clock) : null,
    pkce: s256Pkce,
    appRedirectUris: new Set(config.appRedirectUris),
  };
}
