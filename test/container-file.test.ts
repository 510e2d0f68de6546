import { readFileSync } from 'node:fs';
import { expect } from 'chai';

/**
 * What the container image and a plain install promise, read from the files that make them (the image itself is
 * built and run by `npm run test:container`, outside npm test).
 */
const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

describe('the container image and a plain install', () => {
  const containerfile = read('Containerfile');
  const instructions = containerfile.split('\n').filter((l) => !l.startsWith('#'));

  it("runs the service with npm start's own command, the build step left out", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(containerfile)?.[1];
    expect(cmd, 'a CMD in exec form').to.be.a('string');
    const start = scripts['start']!.split('&&').map((s) => s.trim());
    expect(start[0]).to.equal('node scripts/build-if-changed.mjs');
    expect(JSON.parse(cmd!)).to.deep.equal(start[start.length - 1]!.split(/\s+/));
  });

  it('runs as a user of its own, keeps its data in /data, says when it is healthy, and builds from a named base', () => {
    const users = instructions.filter((l) => /^USER /.test(l)).map((l) => l.slice(5).trim());
    expect(users).to.have.length(1);
    expect(users[0]).to.not.match(/^(root|0)(:|$)/);
    expect(containerfile).to.match(/^VOLUME \["\/data"\]$/m);
    expect(containerfile).to.match(/^ENV [\s\S]*DATABASE_URL=sqlite:\/data\//m);
    expect(containerfile).to.match(/^HEALTHCHECK [\s\S]*\/health\/ready/m);
    expect(containerfile).to.match(/^ARG BASE=node:26-bookworm-slim$/m);
    expect(instructions.filter((l) => /^FROM /.test(l))).to.deep.equal(['FROM ${BASE} AS build', 'FROM ${BASE}']);
  });

  it('installs no build tools in any stage', () => {
    expect(instructions.join('\n')).to.not.match(/apt-get|apk |build-essential|python3?\b|g\+\+|node-gyp/);
  });

  it("installs without running any package's scripts, and the project's own steps are not pre- or post-scripts", () => {
    expect(read('.npmrc')).to.match(/^ignore-scripts=true$/m);
    // npm skips pre- and post-scripts under ignore-scripts: a step there would silently not run.
    const hooked = Object.keys(scripts).filter((name) => /^(pre|post)/.test(name) && (scripts[name.replace(/^(pre|post)/, '')] !== undefined || ['install', 'start', 'test'].includes(name.replace(/^(pre|post)/, ''))));
    expect(hooked).to.deep.equal([]);
    for (const name of ['backup', 'restore', 'admin', 'job']) expect(scripts[name], name).to.match(/^npm run build && node dist\//);
  });

  it('leaves what a build does not need out of the build context', () => {
    const ignored = read('.containerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(ignored).to.include.members(['node_modules', 'dist', 'data', '.git']);
    expect(read('.dockerignore')).to.equal(read('.containerignore'));
  });
});
