import { useEffect, useState } from 'preact/hooks';
import { api, dataOf } from '../../api';
import { kroner, monthName } from '../../format';
import { language, t } from '../../i18n';
import { Page, Problem, useAction } from '../../ui';
import { EmailSignup } from '../../ui/email-signup';

/** The public dinner-price figures (what a week of dinners costs, per household type and month) and the monthly mail. */
export function DinnerPrices() {
  const m = t.value;
  const [prices, setPrices] = useState<Awaited<ReturnType<typeof readPrices>> | null>(null);
  const act = useAction();
  useEffect(() => void act.run(async () => setPrices(await readPrices())), []);
  const months = [...new Set((prices?.months ?? []).map((r) => r.month))].sort().reverse();
  return (
    <Page title={m.dinnerPrices}>
      <p>{m.dinnerPricesAbout}</p>
      <Problem error={act.error} />
      {prices && months.length === 0 && <p>{m.dinnerPricesNone}</p>}
      {months.map((month) => (
        <section key={month} aria-labelledby={`m-${month}`}>
          <h2 id={`m-${month}`}>{monthName(month)}</h2>
          <table class="prices">
            <caption class="visually-hidden">{m.dinnerPricesOf(monthName(month))}</caption>
            <thead>
              <tr>
                <th scope="col">{m.householdType}</th>
                <th scope="col">{m.medianWeek}</th>
                <th scope="col">{m.cheapToDear}</th>
              </tr>
            </thead>
            <tbody>
              {prices!.months
                .filter((r) => r.month === month)
                .map((r) => (
                  <tr key={r.householdType}>
                    <th scope="row">{m.householdTypeName[r.householdType] ?? r.householdType}</th>
                    <td>{kroner(r.medianWeekPrice)}</td>
                    <td>
                      {kroner(r.p10WeekPrice)}–{kroner(r.p90WeekPrice)}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
      <section aria-labelledby="subscribe-h">
        <h2 id="subscribe-h">{m.dinnerPricesMail}</h2>
        <EmailSignup name="prices-email" button={m.subscribeMonthly} send={(email) => api.POST('/api/v1/data/dinner-prices/subscribe', { body: { email, language: language.value } })} />
      </section>
    </Page>
  );
}

const readPrices = () => dataOf(api.GET('/api/v1/data/dinner-prices.json'));
