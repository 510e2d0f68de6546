import { expect } from 'chai';
import { guessableReason } from '../../core/accounts/guessable-passwords.js';

describe('passwords built from what a guesser tries first (domain)', () => {
  const kari = { email: 'kari.hansen@example.com', displayName: 'Kari Nordmann' };

  it('refuses common Norwegian words with digits and signs around them, read through look-alike digits', () => {
    for (const p of ['passord1', 'Passord123!', 'Sommer2024!', 'vinter2025', 'P4ssw0rd!', 'elskling<3', 'oslo1234', 'fotball2010', 'hemmelig99', 'passordpassord', 'Vålerenga1913']) {
      expect(guessableReason(p, kari), p).to.equal('common-word');
    }
  });

  it("refuses the service's name, the person's address and name, alone or mixed with common words", () => {
    expect(guessableReason('Middag2026!', kari)).to.equal('service-name');
    expect(guessableReason('middagpassord', kari)).to.equal('service-name');
    expect(guessableReason('kari.hansen1', kari)).to.equal('email');
    expect(guessableReason('Hansen2024', kari)).to.equal('email');
    expect(guessableReason('nordmann99', kari)).to.equal('name');
    expect(guessableReason('karisommer1', kari)).to.equal('email');
  });

  it('accepts passwords with words of their own, and leaves letterless ones to the breach lists', () => {
    for (const p of ['correct horse battery', 'blåbærsyltetøy på brødskiva', 'Kjøttkaker med ertestuing!', 'sommerfuglvinge7', 'tre tilfeldige ord', '83917264']) {
      expect(guessableReason(p, kari), p).to.equal(null);
    }
  });
});
