import * as v from 'valibot';
import { deletePushDevice, getPushDevice, registerPushDevice, updatePushDevice, type PushDeviceDeps } from '../../../core/push/devices.js';
import { PUSH_PLATFORMS, PUSH_TOKEN_MAX, SWITCH_OF, type PushDevice } from '../../../core/push/types.js';
import { mount, noContent, resource } from '../route.js';
import { IsoDateTime } from '../schemas.js';

const Token = v.pipe(
  v.string(),
  v.maxLength(PUSH_TOKEN_MAX, `at most ${PUSH_TOKEN_MAX} characters`),
  v.regex(/^[\x20-\x7E]*[\x21-\x7E][\x20-\x7E]*$/, 'printable ASCII, not blank'),
);
const Provider = v.pipe(v.string(), v.maxLength(32, 'at most 32 characters'));

const RegisterPushDeviceRequest = v.object({ token: Token, platform: v.picklist(PUSH_PLATFORMS), provider: v.nullable(Provider) });
const UpdatePushDeviceRequest = v.object({
  listChanges: v.boolean(),
  householdNews: v.boolean(),
  runDone: v.boolean(),
  reminders: v.optional(v.nullable(v.boolean())),
});
const PushDeviceResponse = v.object({
  token: v.string(),
  platform: v.picklist(PUSH_PLATFORMS),
  provider: v.string(),
  listChanges: v.boolean(),
  householdNews: v.boolean(),
  runDone: v.boolean(),
  reminders: v.boolean(),
  lastSeenAt: IsoDateTime,
});
const TokenPath = v.object({ token: Token });

const deviceResponse = (d: PushDevice): v.InferOutput<typeof PushDeviceResponse> => ({
  token: d.token,
  platform: d.platform,
  provider: d.provider,
  listChanges: d.listChanges,
  householdNews: d.householdNews,
  runDone: d.runDone,
  reminders: d.reminders,
  lastSeenAt: d.lastSeenAt.toISOString(),
});

const switchDoc = Object.entries(SWITCH_OF)
  .map(([kind, s]) => `${kind} → ${s}`)
  .join('; ');
const DEVICE_DOC =
  "A device belongs to the caller's login, not to a household: it hears of every household the login is in. Switches gate " +
  `the pushes: ${switchDoc}; runDone gates the week-planned push (a planner run saved). The token goes in the path URL-encoded.`;

const WebPushResponse = v.object({ vapidPublicKey: v.nullable(v.string()) });

const { route, handledRoute } = resource<PushDeviceDeps & { readonly webPushKey: string | null }>('Push devices');

const WEB_PUSH_KEY_DOC =
  'The VAPID public key (uncompressed P-256, base64url) to pass as applicationServerKey to PushManager.subscribe; ' +
  'the subscription\'s JSON is then registered as a device of platform web and provider webpush (PUT /api/v1/me/devices). ' +
  'null when this service has no Web Push configured (VAPID_* unset): browsers cannot get pushes then. Signed in only (only the routes declared public need no session); cached privately 5 minutes.';
const REGISTER_PUSH_DEVICE_DOC =
  'Idempotent per token, always 200 (the apps register at every start): a new token is stored with every switch on; the ' +
  "caller's own known token is marked seen (lastSeenAt now), takes the platform and provider sent and keeps its switches; " +
  "a token registered to another login is handed to the caller with every switch on, and the other login gets nothing more " +
  `on it. Never two rows for one token. token: 1 to ${PUSH_TOKEN_MAX} printable ASCII characters (an FCM or APNs token, or ` +
  'for platform web the Web Push subscription as JSON). platform: ios, android, or web (this service\'s addition for the ' +
  "web app's Web Push). provider null means the server's default (PUSH_PROVIDER); a provider this server does not " +
  `have is 400 push_provider_unknown. ${DEVICE_DOC}`;
const UPDATE_PUSH_DEVICE_DOC =
  'listChanges, householdNews and runDone are set as sent; reminders left out or null keeps its current value. ' +
  `A switch turned off also stops pushes of its kind queued but not yet sent. 404 push_device_not_found when the token is not the caller's. ${DEVICE_DOC}`;

const webPushKeyRoute = handledRoute({
  method: 'GET',
  path: '/api/v1/app/web-push',
  operationId: 'webPushKey',
  summary: "The application server key a browser subscribes with, for the web app's Web Push",
  description: WEB_PUSH_KEY_DOC,
  responses: { 200: { description: 'The key, or null', schema: WebPushResponse, headers: { 'Cache-Control': 'private, max-age=300' } } },
  handle: (ctx, { deps }) => {
    ctx.set('Cache-Control', 'private, max-age=300');
    ctx.body = { vapidPublicKey: deps.webPushKey };
  },
});

const registerPushDeviceRoute = route({
  method: 'PUT',
  path: '/api/v1/me/devices',
  operationId: 'registerPushDevice',
  summary: "Register this phone (or browser) for the caller's pushes",
  description: REGISTER_PUSH_DEVICE_DOC,
  body: RegisterPushDeviceRequest,
  responses: { 200: { description: 'The device as registered', schema: PushDeviceResponse } },
  errors: ['push-provider-unknown'],
  run: ({ deps, caller, body }) => registerPushDevice(deps, caller.account, body),
  reply: deviceResponse,
});

const getPushDeviceRoute = route({
  method: 'GET',
  path: '/api/v1/me/devices/{token}',
  operationId: 'getPushDevice',
  summary: 'One of the caller\'s devices',
  description: `404 push_device_not_found when the token is not registered to the caller. ${DEVICE_DOC}`,
  params: TokenPath,
  responses: { 200: { description: 'The device', schema: PushDeviceResponse } },
  errors: ['push-device-not-found'],
  run: ({ deps, caller, params }) => getPushDevice(deps, caller.account, params.token),
  reply: deviceResponse,
});

const updatePushDeviceRoute = route({
  method: 'PATCH',
  path: '/api/v1/me/devices/{token}',
  operationId: 'updatePushDevice',
  summary: "Set a device's switches",
  description: UPDATE_PUSH_DEVICE_DOC,
  params: TokenPath,
  body: UpdatePushDeviceRequest,
  responses: { 200: { description: 'The device after the change', schema: PushDeviceResponse } },
  errors: ['push-device-not-found'],
  run: ({ deps, caller, params, body }) => updatePushDevice(deps, caller.account, params.token, body),
  reply: deviceResponse,
});

const deletePushDeviceRoute = route({
  method: 'DELETE',
  path: '/api/v1/me/devices/{token}',
  operationId: 'deletePushDevice',
  summary: 'Unregister a device',
  description: "Nothing more is sent to it, pushes queued for it included. 404 push_device_not_found when the token is not the caller's.",
  params: TokenPath,
  ...noContent('Unregistered'),
  errors: ['push-device-not-found'],
  run: ({ deps, caller, params }) => deletePushDevice(deps, caller.account, params.token),
});

export const pushDeviceRoutes = (deps: PushDeviceDeps, webPushKey: string | null) =>
  mount({ ...deps, webPushKey }, [
    webPushKeyRoute,
    registerPushDeviceRoute,
    getPushDeviceRoute,
    updatePushDeviceRoute,
    deletePushDeviceRoute,
  ]);

