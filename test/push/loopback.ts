import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:net';

/**
 * A self-signed P-256 certificate for 127.0.0.1, made at test time with node:crypto alone (a few lines of DER),
 * so that the APNs and Web Push adapters are tested over the TLS they use in production.
 */
export function selfSignedCert(): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const der = (tag: number, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const len = body.length < 128 ? Buffer.from([body.length]) : body.length < 256 ? Buffer.from([0x81, body.length]) : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
    return Buffer.concat([Buffer.from([tag]), len, body]);
  };
  const seq = (...p: Buffer[]) => der(0x30, ...p);
  const hex = (h: string) => Buffer.from(h, 'hex');
  const ecdsaWithSha256 = seq(hex('06082a8648ce3d040302'));
  const name = seq(der(0x31, seq(hex('0603550403'), der(0x0c, Buffer.from('localhost')))));
  const utc = (d: Date) => der(0x17, Buffer.from(d.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z'));
  const now = Date.now();
  const subjectAltName = seq(hex('0603551d11'), der(0x04, seq(der(0x82, Buffer.from('localhost')), der(0x87, hex('7f000001')))));
  const tbs = seq(
    hex('a003020102'),
    der(0x02, Buffer.concat([hex('01'), randomBytes(8)])),
    ecdsaWithSha256,
    name,
    seq(utc(new Date(now - 60_000)), utc(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(subjectAltName)),
  );
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, hex('00'), sign('sha256', tbs, privateKey)));
  const pem = (label: string, b: Buffer) => `-----BEGIN ${label}-----\n${b.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
  return { key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), cert: pem('CERTIFICATE', certificate) };
}

/** Listens on an ephemeral loopback port and answers the port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    (server as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  });

/** A port nothing listens on: opened and closed again, for the network-failure cases. */
export async function deadPort(server: Server): Promise<number> {
  const port = await listen(server);
  await close(server);
  return port;
}
