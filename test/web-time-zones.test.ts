import { expect } from 'chai';
import { placeOf, zoneGroups, zoneLabel } from '../web/src/ui/time-zones.js';

// The time-zone picker's places (web/src/ui/time-zones.ts), in the household's language, as Node's own Intl (full
// ICU) says them; a winter date, so that offsets do not move with summer time.
describe("the web app's time-zone picker", () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const zones = ['America/New_York', 'Europe/Copenhagen', 'Europe/Oslo', 'Asia/Tokyo', 'Europe/Helsinki', 'UTC', 'America/Argentina/Buenos_Aires'];

  it('names places in the household\'s language, with the time they keep and their offset', () => {
    expect(placeOf('Europe/Copenhagen', 'nb')).to.equal('København');
    expect(placeOf('Europe/Copenhagen', 'en')).to.equal('Copenhagen');
    expect(placeOf('America/Argentina/Buenos_Aires', 'nb')).to.equal('Buenos Aires');
    expect(zoneLabel('Europe/Oslo', 'nb', winter)).to.equal('Oslo — sentraleuropeisk tid (GMT+1)');
    expect(zoneLabel('Europe/Oslo', 'en', winter)).to.equal('Oslo — Central European Time (GMT+1)');
    expect(zoneLabel('Asia/Tokyo', 'nb', winter)).to.match(/^Tokyo — .+ \(GMT\+9\)$/);
  });

  it("puts the household's own zone first, then each part of the world sorted as the language sorts", () => {
    const groups = zoneGroups(zones, 'Europe/Oslo', 'nb', winter);
    expect(groups.map((g) => g.label)).to.deep.equal(['Husholdningens tidssone', 'Europa', 'Amerika', 'Asia', 'Andre']);
    expect(groups[0]!.zones.map((z) => z.zone)).to.deep.equal(['Europe/Oslo']);
    // Helsingfors before København in Norwegian order; Oslo only once, in its own group.
    expect(groups[1]!.zones.map((z) => z.zone)).to.deep.equal(['Europe/Helsinki', 'Europe/Copenhagen']);
    expect(groups.flatMap((g) => g.zones).filter((z) => z.zone === 'Europe/Oslo')).to.have.length(1);
    expect(groups.flatMap((g) => g.zones)).to.have.length(zones.length);
    // An own zone the service does not know is not offered.
    expect(zoneGroups(zones, 'Mars/Olympus', 'en', winter).map((g) => g.label)).to.deep.equal(['Europe', 'Americas', 'Asia', 'Other']);
  });
});
