import { expect } from 'chai';
import { openAiPlanner, tipsOf } from '../../adapters/ai/openai-planner.js';

const completion = (content: unknown) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });
const dates = new Set(['2026-11-23', '2026-11-24']);

describe('the OpenAI-compatible planner AI (adapter)', () => {
  it('reads the tips by date, also from inside a code fence, keeping only the dates asked and the strings', () => {
    const days = { days: [{ date: '2026-11-23', tips: ['Server med sitron.', 7, null] }, { date: '2026-12-01', tips: ['Not asked'] }, { date: '2026-11-24', tips: 'not a list' }] };
    expect(tipsOf(completion(JSON.stringify(days)), dates)).to.deep.equal(new Map([['2026-11-23', ['Server med sitron.']]]));
    expect(tipsOf(completion('```json\n' + JSON.stringify(days) + '\n```'), dates).get('2026-11-23')).to.deep.equal(['Server med sitron.']);
  });

  it('throws on anything but the JSON asked for', () => {
    for (const text of ['not json', JSON.stringify({ choices: [] }), completion(null), completion('plain words'), completion(JSON.stringify({ tips: [] }))]) {
      expect(() => tipsOf(text, dates), text).to.throw();
    }
  });

  it('asks the chat completions endpoint once with the model, the key and the dinners, and throws on an error status', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    let status = 200;
    const fake = (async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(completion(JSON.stringify({ days: [{ date: '2026-11-23', tips: ['Godt!'] }] })), { status, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    const ai = openAiPlanner({ baseUrl: 'http://ai.test/v1', model: 'm', apiKey: 'k', timeoutMs: 1000 }, fake);
    const dinner = { date: '2026-11-23', recipeTitle: 'Suppe', ingredients: ['Gulrot'], avoids: ['nøtter'], portions: 4, cookingMinutes: 20 };
    expect(await ai.servingTips({ language: 'nb', dinners: [dinner] })).to.deep.equal(new Map([['2026-11-23', ['Godt!']]]));
    expect(seen[0]!.url).to.equal('http://ai.test/v1/chat/completions');
    expect((seen[0]!.init.headers as Record<string, string>)['authorization']).to.equal('Bearer k');
    const body = JSON.parse(String(seen[0]!.init.body)) as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).to.equal('m');
    expect(JSON.parse(body.messages[1]!.content)).to.deep.equal({ dinners: [{ date: '2026-11-23', dish: 'Suppe', ingredients: ['Gulrot'], avoid: ['nøtter'], portions: 4, minutesToCook: 20 }] });
    status = 429;
    let failed: unknown = null;
    await ai.servingTips({ language: 'en', dinners: [dinner] }).catch((e: unknown) => (failed = e));
    expect(String(failed)).to.contain('429');
  });
});
