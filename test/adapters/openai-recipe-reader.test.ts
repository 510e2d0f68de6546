import { expect } from 'chai';
import { openAiRecipeReader, recipeOf } from '../../adapters/ai/openai-recipe-reader.js';
import { aiRecipe, completion, FakeRecipeAi } from '../support/fake-recipe-ai.js';

const text = (content: unknown) => JSON.stringify(completion(content).body);

describe('the OpenAI-compatible recipe reader (adapter)', () => {
  const ai = new FakeRecipeAi();
  let baseUrl = '';
  before(async () => (baseUrl = await ai.start()));
  after(() => ai.stop());
  beforeEach(() => {
    ai.calls = [];
    ai.answer = () => completion(aiRecipe());
  });

  it('reads the recipe, also from inside a code fence, trimmed, and an active time longer than the total is dropped', () => {
    const read = recipeOf(text('```json\n' + JSON.stringify(aiRecipe({ title: '  Fiskekaker ', activeMinutes: 90 })) + '\n```'));
    expect(read).to.deep.include({ ok: true });
    if (!read.ok) return;
    expect([read.recipe.title, read.recipe.servings, read.recipe.totalMinutes, read.recipe.activeMinutes]).to.deep.equal(['Fiskekaker', 4, 40, null]);
    expect(read.recipe.ingredientLines).to.have.length(5);
    const bare = recipeOf(text({ recipe: { title: 'Suppe', ingredients: ['1 l vann'], steps: ['Kok.'] } }));
    expect(bare.ok && [bare.recipe.yields, bare.recipe.servings, bare.recipe.totalMinutes]).to.deep.equal([null, null, null]);
  });

  it('is unreadable for anything but the JSON asked for, and no-recipe when it says so', () => {
    for (const answer of [
      'not json',
      JSON.stringify({ choices: [] }),
      text('plain words'),
      text({ recipe: { title: '', ingredients: [], steps: [] } }),
      text({ recipe: { title: 'X', ingredients: 'egg', steps: [] } }),
      text({ recipe: { title: 'X', ingredients: [], steps: [], servings: 0 } }),
      text({ recipe: { title: 'X', ingredients: Array.from({ length: 101 }, () => '1 egg'), steps: [] } }),
      text({ recipe: { title: 'X'.repeat(201), ingredients: [], steps: [] } }),
    ]) {
      expect(recipeOf(answer), answer.slice(0, 80)).to.deep.equal({ ok: false, reason: 'unreadable' });
    }
    expect(recipeOf(text({ recipe: null }))).to.deep.equal({ ok: false, reason: 'no-recipe' });
  });

  it('sends one request to a local server: the picture as an image_url data URL, a PDF as a file part, fixed instructions and nothing else', async () => {
    const reader = openAiRecipeReader({ baseUrl, model: 'm', apiKey: null, timeoutMs: 2000 });
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    expect((await reader.read({ bytes: jpeg, mediaType: 'image/jpeg' })).ok).to.equal(true);
    const pdf = new Uint8Array(Buffer.from('%PDF-1.4 test'));
    expect((await reader.read({ bytes: pdf, mediaType: 'application/pdf' })).ok).to.equal(true);
    expect(ai.calls).to.have.length(2);
    const [picture, file] = ai.calls.map((c) => c.body as { model: string; response_format: unknown; messages: { role: string; content: unknown }[] });
    expect(ai.calls[0]!.authorization).to.equal(undefined);
    expect([picture!.model, picture!.response_format]).to.deep.equal(['m', { type: 'json_object' }]);
    expect(picture!.messages.map((m) => m.role)).to.deep.equal(['system', 'user']);
    expect(picture!.messages[1]!.content).to.deep.equal([
      { type: 'text', text: 'The recipe is in this file.' },
      { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}` } },
    ]);
    expect(file!.messages[1]!.content).to.deep.equal([
      { type: 'text', text: 'The recipe is in this file.' },
      { type: 'file', file: { filename: 'recipe.pdf', file_data: `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}` } },
    ]);
    // The system message is the same fixed text for both.
    expect(picture!.messages[0]).to.deep.equal(file!.messages[0]);
  });

  it('is unreachable on an error status, a closed port or a timeout; unreadable on a junk answer', async () => {
    const reader = openAiRecipeReader({ baseUrl, model: 'm', apiKey: 'k', timeoutMs: 300 });
    const jpeg = { bytes: new Uint8Array([0xff, 0xd8, 0xff]), mediaType: 'image/jpeg' as const };
    ai.answer = () => ({ status: 429, body: { error: 'rate limited' } });
    expect(await reader.read(jpeg)).to.deep.equal({ ok: false, reason: 'unreachable' });
    ai.answer = () => ({ status: 200, body: '<html>gateway</html>' });
    expect(await reader.read(jpeg)).to.deep.equal({ ok: false, reason: 'unreadable' });
    const closed = openAiRecipeReader({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: null, timeoutMs: 300 });
    expect(await closed.read(jpeg)).to.deep.equal({ ok: false, reason: 'unreachable' });
    const slow = openAiRecipeReader({ baseUrl: 'http://ai.test/v1', model: 'm', apiKey: null, timeoutMs: 50 }, ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof fetch);
    expect(await slow.read(jpeg)).to.deep.equal({ ok: false, reason: 'unreachable' });
  });
});
