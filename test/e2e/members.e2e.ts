import { expect } from 'chai';
import { signedInClient } from '../support/client.js';
import { databaseKinds } from '../support/databases.js';
import { browserSuite, checkedShot } from './browser.js';

/** Members: who is still to join, several invites open at once, each with its link, and one withdrawn. */
for (const kind of databaseKinds()) {
  describe(`the web app in Chromium: members and their invites [${kind.name}]`, function () {
    this.timeout(90_000);
    const suite = browserSuite('members', kind);

    it('keeps several invites open, says who is waiting to join, and withdraws one', async () => {
      const kari = await signedInClient(suite.server.url, 'Kari');
      const h = (await kari.client.post('/api/v1/households', { name: 'Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const page = await suite.page(kari.client);
      await page.goto(`${suite.server.url}/members`);
      for (const name of ['Eva', 'Per']) {
        await page.getByLabel('Navn på den du inviterer').fill(name);
        await page.getByRole('button', { name: 'Inviter', exact: true }).click();
        await page.getByText(`Send denne lenken til ${name}:`).waitFor();
      }
      // Both links stay open: a new invite never replaces another.
      const open = page.locator('section').filter({ has: page.getByRole('heading', { name: '2 åpne invitasjoner' }) });
      await open.waitFor();
      expect(await open.locator('code.link-text').count()).to.equal(2);
      const members = page.locator('ul.cards').first().locator('li');
      await members.filter({ hasText: 'Eva' }).getByText(/^Venter på å bli med/).waitFor();
      await members.filter({ hasText: 'Per' }).getByText(/^Venter på å bli med/).waitFor();
      await checkedShot(page, `members-invites-${kind.name}`);

      // Per's invite withdrawn: his link stops working, and he has no way in until a new one.
      await open.getByRole('button', { name: 'Trekk tilbake invitasjonen til Per' }).click();
      await page.getByRole('heading', { name: '1 åpen invitasjon' }).waitFor();
      await members.filter({ hasText: 'Per' }).getByText(/^Ingen åpen invitasjon/).waitFor();
      const codes = ((await kari.client.get(`${base}/invites`)).json as { code: string }[]).map((i) => i.code);
      expect(codes).to.have.length(1);

      // Eva joins with her link: she is no longer waiting, and no invite is left open.
      const eva = await signedInClient(suite.server.url, 'Eva');
      expect((await eva.client.post('/api/v1/invites/accept', { code: codes[0] })).status).to.equal(200);
      await page.reload();
      await members.filter({ hasText: 'Eva' }).waitFor();
      expect(await members.filter({ hasText: 'Eva' }).getByText(/^Venter på å bli med/).count()).to.equal(0);
      expect(await page.getByRole('heading', { name: /åpne? invitasjon/ }).count()).to.equal(0);
    });

    it('counts a child without a sign-in as half a portion, and an invite link opened signed out names the household and who invited', async () => {
      const kari = await signedInClient(suite.server.url, 'Kari Hansen');
      const h = (await kari.client.post('/api/v1/households', { name: 'Familien Hansen' })).json as { id: string };
      const base = `/api/v1/households/${h.id}`;
      const ola = (await kari.client.post(`${base}/members`, { displayName: 'Ola', role: 'Adult' })).json as { id: string };
      const page = await suite.page(kari.client);
      const today = page.locator('li.day.today');
      await page.goto(`${suite.server.url}/`);
      await today.getByText(/\b2 porsjoner\b/).waitFor();

      // Lille, a child who does not sign in: the week's two portions become three (2.5 rounded up).
      await page.goto(`${suite.server.url}/members`);
      await page.getByLabel('Navn', { exact: true }).fill('Lille');
      await page.getByRole('group', { name: 'Aldersgruppe' }).getByLabel('Barn').check();
      await page.getByRole('button', { name: 'Legg til', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Lille er lagt til.' }).waitFor();
      const members = page.locator('ul.cards').first().locator('li');
      await members.filter({ hasText: 'Lille' }).locator('span.muted').getByText('Barn', { exact: true }).waitFor();
      // An adult's age group goes unsaid ('Voksen' is there only as the role to choose).
      expect(await members.filter({ hasText: 'Ola' }).locator('span.muted').filter({ hasText: 'Voksen' }).count()).to.equal(0);
      await checkedShot(page, `members-child-${kind.name}`);
      await page.getByRole('link', { name: 'Uka', exact: true }).click();
      await today.getByText(/\b3 porsjoner\b/).waitFor();

      // Lille is a baby after all: changed on her row, she eats nothing of the dinner and the week is back at two.
      await page.goto(`${suite.server.url}/members`);
      await page.getByRole('combobox', { name: 'Aldersgruppe for Lille' }).selectOption('Baby');
      await members.filter({ hasText: 'Lille' }).locator('span.muted').getByText('Baby', { exact: true }).waitFor();
      // Sofie is invited with her age group: a child who will sign in, half a portion from now on.
      await page.getByLabel('Navn på den du inviterer').fill('Sofie');
      await page.getByRole('combobox', { name: 'Rolle', exact: true }).selectOption('Junior');
      await page.getByRole('combobox', { name: 'Aldersgruppe', exact: true }).selectOption('Child');
      await page.getByRole('button', { name: 'Inviter', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Send denne lenken til Sofie:' }).waitFor();
      await members.filter({ hasText: 'Sofie' }).locator('span.muted').getByText('Barn', { exact: true }).waitFor();
      await checkedShot(page, `members-age-groups-${kind.name}`);
      const sofie = ((await kari.client.get(base)).json as { members: { displayName: string; role: string; ageGroup: string }[] }).members.find((x) => x.displayName === 'Sofie');
      expect(sofie).to.include({ role: 'Junior', ageGroup: 'Child' });
      await page.getByRole('link', { name: 'Uka', exact: true }).click();
      await today.getByText(/\b3 porsjoner\b/).waitFor();

      // Ola's link, opened in a browser nobody is signed in to: whose household, and who invited.
      const code = ((await kari.client.post(`${base}/invites`, { role: 'Adult', memberId: ola.id })).json as { code: string }).code;
      const stranger = await suite.page();
      await stranger.goto(`${suite.server.url}/invite?code=${code}`);
      await stranger.getByRole('heading', { name: 'Kari Hansen inviterer deg til Familien Hansen' }).waitFor();
      await stranger.getByText(/^Invitasjonen er til Ola\. Lenken virker til /).waitFor();
      await stranger.getByRole('link', { name: 'Opprett konto' }).waitFor();
      await checkedShot(stranger, `invite-signed-out-${kind.name}`);

      // Once Ola has used it, the link says it no longer works, and Kari sees it used by him.
      const joiner = await signedInClient(suite.server.url, 'Ola');
      expect((await joiner.client.post('/api/v1/invites/accept', { code })).status).to.equal(200);
      await stranger.reload();
      await stranger.getByRole('alert').filter({ hasText: 'Denne lenken virker ikke lenger' }).waitFor();
      expect(await stranger.getByRole('link', { name: 'Opprett konto' }).count()).to.equal(0);
      await checkedShot(stranger, `invite-used-${kind.name}`);
      // A link for anyone, used by Per: the earlier invites say who used which, and when.
      const open = ((await kari.client.post(`${base}/invites`, { role: 'Adult' })).json as { code: string }).code;
      const per = await signedInClient(suite.server.url, 'Per');
      expect((await per.client.post('/api/v1/invites/accept', { code: open })).status).to.equal(200);
      await page.goto(`${suite.server.url}/members`);
      const past = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Tidligere invitasjoner' }) }).locator('li');
      await past.filter({ hasText: 'Hvem som helst med lenken' }).getByText(/Brukt av Per \d+\. \p{L}+$/u).waitFor();
      await past.filter({ hasText: /^Ola/ }).getByText(/Brukt \d+\. \p{L}+$/u).waitFor();
      await members.filter({ hasText: 'Lille' }).getByText('Uten innlogging, telles med i porsjonene').waitFor();
      await checkedShot(page, `members-past-invites-${kind.name}`);
    });
  });
}
