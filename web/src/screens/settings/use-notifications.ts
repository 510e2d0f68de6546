import { useEffect, useState } from 'preact/hooks';
import { ApiProblem, api, dataOf } from '../../api';
import { useAction } from '../../ui';

type Device = Awaited<ReturnType<typeof readDevice>>;
type Switch = 'listChanges' | 'householdNews' | 'runDone' | 'reminders';
export const SWITCHES: readonly Switch[] = ['listChanges', 'householdNews', 'reminders', 'runDone'];

const readDevice = (token: string) => dataOf(api.GET('/api/v1/me/devices/{token}', { params: { path: { token } } }));

/** The VAPID key in base64url as the bytes PushManager.subscribe wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '='));
  const out = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** How long the browser's push service may take to subscribe. */
const SUBSCRIBE_TIMEOUT_MS = 15_000;

/** Where this browser stands: it cannot, the service does not, the person said no, or it may subscribe. */
type Standing = 'unsupported' | 'not-configured' | 'denied' | 'ready';

/**
 * Pushes to this browser: where it stands, the device of the person's login it is subscribed as (platform web, the
 * subscription's JSON as the token), and the calls that subscribe it, flip its switches and unsubscribe it.
 */
export function useNotifications() {
  const [standing, setStanding] = useState<Standing | null>(null);
  const [key, setKey] = useState<string | null>(null);
  const [device, setDevice] = useState<Device | null>(null);
  const act = useAction();
  useEffect(
    () =>
      void act.run(async () => {
        if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return setStanding('unsupported');
        const { vapidPublicKey } = await dataOf(api.GET('/api/v1/app/web-push'));
        if (!vapidPublicKey) return setStanding('not-configured');
        setKey(vapidPublicKey);
        setStanding(Notification.permission === 'denied' ? 'denied' : 'ready');
        const sub = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
        if (!sub) return;
        try {
          setDevice(await readDevice(JSON.stringify(sub)));
        } catch (err) {
          // Subscribed once, but not (or no longer) this login's device: offered to turn on again.
          if (!(err instanceof ApiProblem && err.status === 404)) throw err;
        }
      }),
    [],
  );
  const turnOn = () =>
    act.run(async () => {
      if ((await Notification.requestPermission()) !== 'granted') return setStanding('denied');
      const registration = await navigator.serviceWorker.ready;
      // The browser asks its own push service (Google's, Mozilla's, Apple's): that may fail, or never answer.
      const subscribing = registration.pushManager.getSubscription().then((s) => s ?? registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key!) }));
      const gaveUp = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), SUBSCRIBE_TIMEOUT_MS));
      const sub = await Promise.race([subscribing, gaveUp]).catch(() => {
        throw new ApiProblem(0, 'push_subscribe_failed');
      });
      setDevice(await dataOf(api.PUT('/api/v1/me/devices', { body: { token: JSON.stringify(sub), platform: 'web', provider: 'webpush' } })));
    });
  const turnOff = () =>
    act.run(async () => {
      const sub = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
      if (device) await api.DELETE('/api/v1/me/devices/{token}', { params: { path: { token: device.token } } });
      await sub?.unsubscribe();
      setDevice(null);
    });
  const flip = (which: Switch, on: boolean) =>
    act.run(async () => {
      if (!device) return;
      const next = { listChanges: device.listChanges, householdNews: device.householdNews, runDone: device.runDone, reminders: device.reminders, [which]: on };
      // Shown at once, taken back if the service refuses.
      setDevice({ ...device, [which]: on });
      try {
        setDevice(await dataOf(api.PATCH('/api/v1/me/devices/{token}', { params: { path: { token: device.token } }, body: next })));
      } catch (err) {
        setDevice(device);
        throw err;
      }
    });
  return { standing, device, act, turnOn, turnOff, flip };
}
