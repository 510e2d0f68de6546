import net from 'node:net';

/**
 * A loopback TCP proxy to cut a service off its database and give it back. `cut()` stops listening and destroys
 * every piped socket: new connections are refused, open ones die mid-conversation (the database host is gone).
 * `stall()` destroys the open ones too but takes new connections in and never answers them (packets dropped on
 * the way). `restore()` forwards again on the same port.
 */
export interface TcpProxy {
  readonly port: number;
  cut(): Promise<void>;
  stall(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let stalled = false;
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
    // Either side ending ends both: the service must see its connection die, as with a real outage.
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
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
    async restore() {
      // Connections taken in while stalled were never answered: drop them, as the network would time them out.
      if (stalled) dropAll();
      stalled = false;
      if (!server.listening) await listen(port);
    },
    close: cut,
  };
}
