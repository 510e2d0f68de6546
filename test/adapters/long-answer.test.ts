import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { longAnswer, type LongAnswer } from '../../adapters/http/long-answer.js';

const nothing = () => undefined;

/**
 * adapters/http/long-answer.ts on a bare Node server, over real sockets: a long answer's connection is taken off the
 * server once its head is out (no parser, no response kept for it), its body framed as the head said, and its end
 * or the client's going away told once.
 */
describe('a long answer taken off Node’s HTTP server', function () {
  this.timeout(10_000);
  let server: Server;
  let port: number;
  const answers: { answer: LongAnswer; socket: Socket; closes: number; res: ServerResponse }[] = [];

  /** A long answer whose request and response nothing here holds: only weakly, to see whether anything else does. */
  const weak: { answer: LongAnswer; req: WeakRef<IncomingMessage>; res: WeakRef<ServerResponse> }[] = [];
  function weakAnswer(req: IncomingMessage, res: ServerResponse) {
    res.setHeader('Connection', 'close');
    setImmediate(() => {
      res.flushHeaders();
      // Its onClose is made outside: a closure made here would keep this scope, the request and response with it.
      const answer = longAnswer(req, res, nothing);
      answer.write('event: ready\ndata: {}\n\n');
      weak.push({ answer, req: new WeakRef(req), res: new WeakRef(res) });
    });
  }

  before(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/plain') return void res.end('plain');
      if (req.url === '/weak') return void weakAnswer(req, res);
      res.setHeader('Content-Type', 'text/event-stream');
      res.setHeader('Connection', 'close');
      // As the live route does: on a later turn than the request's, once what came with it has been read.
      setImmediate(() => {
        res.flushHeaders();
        const socket = res.socket!;
        const entry = { answer: null as unknown as LongAnswer, socket, closes: 0, res };
        entry.answer = longAnswer(req, res, () => entry.closes++, { lingerMs: 300 });
        entry.answer.write('event: ready\ndata: {}\n\n');
        answers.push(entry);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    // Taken connections are not the server's to close: the clients' ends go.
    for (const socket of clients) socket.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const until = async (done: () => boolean, what: string) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(done(), what).to.equal(true);
  };

  /** A raw client: what it sends, and every byte it has read. */
  const clients: Socket[] = [];
  function client(request: string) {
    const socket = connect(port, '127.0.0.1');
    clients.push(socket);
    let read = '';
    let ended = false;
    socket.on('data', (d) => (read += d.toString('latin1')));
    socket.on('end', () => (ended = true));
    socket.on('error', () => undefined);
    socket.write(request);
    return {
      socket,
      get read() {
        return read;
      },
      get ended() {
        return ended;
      },
    };
  }

  /** A client's request, once its stream's first event has come, with the server's side of it. */
  async function opened(request = 'GET /stream HTTP/1.1\r\nHost: x\r\n\r\n') {
    const seen = answers.length;
    const c = client(request);
    await until(() => answers.length > seen && c.read.includes('ready'), 'the first event');
    return { c, entry: answers[seen]! };
  }

  it('takes the connection off the server and frames the body in chunks, ending with the last chunk and the close', async () => {
    const { c, entry } = await opened();
    const { answer, socket, res } = entry;
    // The server has let go of it: no parser, no response held for it, none of its listeners left on the socket.
    expect((socket as Socket & { parser?: unknown }).parser).to.equal(null);
    expect((socket as Socket & { _httpMessage?: unknown })._httpMessage).to.equal(null);
    expect(res.socket).to.equal(null);
    expect(socket.listeners('data').map((l) => l.name)).to.not.include('bound socketOnData');
    expect(c.read).to.match(/^HTTP\/1\.1 200 OK\r\n/);
    expect(c.read.toLowerCase()).to.include('transfer-encoding: chunked').and.include('connection: close');
    answer.write('event: changed\ndata: {"households":["h"]}\n\n');
    answer.write('');
    answer.end('event: end\ndata: {"reason":"closing"}\n\n');
    await until(() => c.ended, 'the connection closed by the server');
    const body = c.read.slice(c.read.indexOf('\r\n\r\n') + 4);
    const chunks = [
      'event: ready\ndata: {}\n\n',
      'event: changed\ndata: {"households":["h"]}\n\n',
      'event: end\ndata: {"reason":"closing"}\n\n',
    ];
    expect(body).to.equal(chunks.map((t) => `${Buffer.byteLength(t).toString(16)}\r\n${t}\r\n`).join('') + '0\r\n\r\n');
    expect(entry.closes).to.equal(1);
    expect(answer.closed).to.equal(true);
  });

  it('lets go of the request and the response once the connection is taken, while the answer goes on', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const c = client('GET /weak HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => weak.length === 1 && c.read.includes('ready'), 'the first event');
    const { answer, req, res } = weak[0]!;
    // Collected once nothing holds them (a WeakRef holds its target until the turn that made it has ended).
    await until(() => {
      gc();
      return req.deref() === undefined && res.deref() === undefined;
    }, 'the request and the response collected');
    answer.end('event: end\ndata: {}\n\n');
    await until(() => c.ended, 'the connection closed by the server');
    expect(c.read).to.match(/event: end\ndata: \{\}\n\n\r\n0\r\n\r\n$/);
  });

  it('tells once that the client went away, and writes nothing more', async () => {
    const { c, entry } = await opened();
    c.socket.destroy();
    await until(() => entry.closes === 1, 'the close told');
    entry.answer.write('event: changed\ndata: {}\n\n');
    entry.answer.end('event: end\ndata: {}\n\n');
    expect(entry.closes).to.equal(1);
  });

  it('ends the connection when the client sends anything more on it', async () => {
    const { c, entry } = await opened();
    c.socket.write('GET /plain HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => entry.closes === 1 && c.ended, 'the connection closed');
    expect(c.read).to.not.include('plain');
  });

  it('closes an ended answer’s connection after a while when the client reads nothing more', async () => {
    const { c, entry } = await opened();
    c.socket.pause();
    // More than the two sides' buffers hold: the last chunk cannot go out while the client does not read.
    const big = 'x'.repeat(1 << 20);
    for (let i = 0; i < 16; i++) entry.answer.write(big);
    let gone = false;
    entry.socket.once('close', () => (gone = true));
    entry.answer.end('event: end\ndata: {}\n\n');
    expect(entry.socket.writableLength).to.be.above(0);
    await until(() => gone, 'the connection closed by the server');
  });

  it('writes an HTTP/1.0 body as it is, delimited by the close', async () => {
    const { c, entry } = await opened('GET /stream HTTP/1.0\r\n\r\n');
    entry.answer.end('event: end\ndata: {}\n\n');
    await until(() => c.ended, 'the connection closed by the server');
    expect(c.read.slice(c.read.indexOf('\r\n\r\n') + 4)).to.equal('event: ready\ndata: {}\n\nevent: end\ndata: {}\n\n');
  });

  it('leaves to the server a connection on which a second request was already read, and writes on its response', async () => {
    // Pipelined: the second request is read with the first. The stream's head says the connection closes after it,
    // so the server answers the stream and closes the connection.
    const { c, entry } = await opened('GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /plain HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(entry.res.socket).to.equal(entry.socket);
    expect((entry.socket as Socket & { parser?: unknown }).parser).to.not.equal(null);
    entry.answer.end('event: end\ndata: {}\n\n');
    await until(() => c.ended, 'the connection closed by the server');
    expect(c.read.slice(c.read.indexOf('\r\n\r\n') + 4)).to.match(/event: end\ndata: \{\}\n\n\r\n0\r\n\r\n$/);
    expect(entry.closes).to.equal(1);
  });
});
