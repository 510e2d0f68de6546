import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

// dependency-cruiser (npm run lint:layers) checks imports; this checks what imports cannot show.
describe('architecture', () => {
  it('core reads time only from the Clock port and randomness only from ports', () => {
    const offenders = sources('core').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line }))
        .filter(({ text }) => /Date\.now\(|new Date\(\)|Math\.random|crypto\.|process\.|globalThis\./.test(text)),
    );
    expect(offenders).to.deep.equal([]);
  });

  it('the web app renders text from the API as text: no HTML is ever parsed from a string', () => {
    // Recipe titles, names and steps come from other people; Preact escapes every text it renders, so the only way
    // in for markup is one of these.
    const offenders = sources('web/src').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line }))
        .filter(({ text }) => /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|\beval\(|new Function\(/.test(text)),
    );
    expect(sources('web/src').length).to.be.above(5);
    expect(offenders).to.deep.equal([]);
  });

  it('config/ is the only reader of process.env', () => {
    const offenders = ['core', 'ports', 'adapters', 'bootstrap'].flatMap(sources).filter((f) => /process\.env/.test(readFileSync(f, 'utf8')));
    expect(offenders).to.deep.equal([]);
  });
});
