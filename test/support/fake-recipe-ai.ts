import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake AI answers to one request: a status and a body (a string is sent as it is). */
export type FakeAnswer = { status: number; body: unknown };

/** A chat completion whose message is `content` (a value is sent as its JSON text). */
export const completion = (content: unknown): FakeAnswer => ({
  status: 200,
  body: { choices: [{ message: { role: 'assistant', content: typeof content === 'string' ? content : JSON.stringify(content) } }] },
});

/** A recipe as the AI is asked to write it. */
export const aiRecipe = (over: Record<string, unknown> = {}) => ({
  recipe: {
    title: 'Fiskekaker',
    yields: '4 porsjoner',
    servings: 4,
    totalMinutes: 40,
    activeMinutes: 20,
    ingredients: ['500 g hyse', '1 egg', '2 ss potetmel', '1 ts salt', 'litt muskat'],
    steps: ['Kjør fisken med salt i en foodprosessor.', 'Rør inn egg og potetmel.', 'Form kaker og stek dem gylne.'],
    ...over,
  },
});

/**
 * An OpenAI-compatible chat completions endpoint on loopback that reads recipes from pictures: answers what the
 * test sets (a recipe by default), keeps every request it got (body and headers) and its raw text.
 */
export class FakeRecipeAi {
  calls: { body: Record<string, unknown>; text: string; authorization: string | undefined }[] = [];
  answer: () => FakeAnswer = () => completion(aiRecipe());
  private server: Server = createServer((req, res) => void this.handle(req, res));
  /** Listens on a free port (once: a second call answers the same address). */
  async start(): Promise<string> {
    if (!this.server.listening) await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }
  stop = () =>
    new Promise<void>((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  private async handle(req: IncomingMessage, res: ServerResponse) {
    let text = '';
    for await (const chunk of req) text += chunk;
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    this.calls.push({ body: JSON.parse(text) as Record<string, unknown>, text, authorization: req.headers.authorization });
    const { status, body } = this.answer();
    res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  }
}
