import type { VersionMap } from '../../config/config.js';
import type { RegisterDeps } from '../../core/accounts/register.js';
import type { LoginDeps } from '../../core/accounts/login.js';
import type { MeDeps } from '../../core/accounts/me.js';
import type { HouseholdDeps } from '../../core/households/households.js';
import type { Logger } from '../../ports/logger.js';

/** Everything the use cases behind the routes need: ports only. */
export type ServiceDeps = RegisterDeps & LoginDeps & MeDeps & HouseholdDeps;

/** What the routes need besides the use cases. */
export interface RouteSettings {
  readonly publicBaseUrl: string;
  readonly version: string;
  readonly buildId: string;
  readonly appVersionFloor: VersionMap;
  readonly appVersionLatest: VersionMap;
  readonly logger: Logger;
  readiness(): Promise<{ ready: true } | { ready: false; reason: string }>;
}
