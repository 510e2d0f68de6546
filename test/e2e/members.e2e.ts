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
  });
}
