import net from 'node:net';

/**
 * A loopback TCP proxy to cut a service off its database and give it back. `cut()` stops listening and destroys
 * every piped socket: new connections are refused, open ones die mid-conversation (the database host is gone).
 * `stall()` destroys the open ones too but takes new connections in and never answers them (packets dropped on
 * the way). `freeze()` goes silent without closing anything: open connections stay open but nothing passes either
 * way, and new ones are taken in and never answered (a network dropping every packet, so nobody learns of it).
 * `restore()` forwards again on the same port (connections left silent are dropped, as the network's timeouts would).
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  stall(): Promise<void>;
  freeze(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
  let frozen = false;
  // The piped pairs, to stop piping on freeze.
  const pairs = new Set<[net.Socket, net.Socket]>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (stalled) return;
    const upstream = net.connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    // Either side ending ends both: the service must see its connection die, as with a real outage.
    client.once('close', () => (pairs.delete(pair), upstream.destroy()));
    upstream.once('close', () => (pairs.delete(pair), client.destroy()));
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const dropAll = () => {
    for (const s of sockets) s.destroy();
  };
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    stalled = false;
    frozen = false;
    if (!server.listening) return dropAll();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    dropAll();
    await closed;
  };
  return {
    port,
    cut,
    async stall() {
      if (!server.listening) await listen(port);
      stalled = true;
      dropAll();
    },
    freeze() {
      stalled = true;
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async restore() {
      // Connections taken in while stalled, or left silent, were never answered: drop them, as the network would
      // time them out.
      if (stalled || frozen) dropAll();
      stalled = false;
      frozen = false;
      if (!server.listening) await listen(port);
    },
    close: cut,
  };
}
