// Dashboard, the event kinds of the webhook forms (docs/api.md "Webhooks", "The integrator's toolkit in
// the dashboard"): the forms offer every kind the API accepts, wallet.low_balance and
// service.status_changed included (both were missing), listed by the server from the schema the API
// validates endpoints against, so that a kind added to the API cannot be missing from the dashboard.
// A new endpoint starts with the kinds the API gives an endpoint registered without `events`:
// service.status_changed is left for the reseller to choose. In headless Chromium against a real server
// and a real HTTPS receiver.
import t from 'tap';
import { start_server } from './helpers/server.js';
import { WebhookReceiver, webhook_env } from './helpers/webhook-receiver.js';
import { api_response, launch_browser, open_page, page_fetch, settled, shows, sign_in, unnamed_controls } from './helpers/browser.js';
import { EventKindName } from '../src/schemas/webhook-schemas.js';

/** What the API accepts in `events`: its schema's one list. */
const accepted_kinds = (EventKindName as unknown as { enum: string[] }).enum;

t.test('the webhook forms offer every event kind the API accepts, service.status_changed only when chosen', async (t) => {
  const receiver = new WebhookReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const server = await start_server(t, { env: webhook_env({ LOG_LEVEL: 'warn' }) });
  const reseller = await server.reseller(1_000, {}, { rate_limit_per_minute: 1_000_000 });
  t.ok(accepted_kinds.includes('wallet.low_balance') && accepted_kinds.includes('service.status_changed'), 'the API accepts wallet.low_balance and service.status_changed');

  // What the API gives an endpoint registered without events: the default the form must start from.
  const bare = await server.api('POST', '/v1/webhooks', { key: reseller.key, body: { url: `${receiver.url}/bare` } });
  t.equal(bare.status, 201, 'an endpoint registered through the API without events');
  const api_default = bare.body.data.events as string[];
  t.notOk(api_default.includes('service.status_changed'), 'the API leaves service.status_changed out by default');
  t.ok(api_default.includes('wallet.low_balance'), 'and includes wallet.low_balance');
  t.equal((await server.api('DELETE', `/v1/webhooks/${bare.body.data.id}`, { key: reseller.key })).status, 200, 'that endpoint is deleted again');

  const browser = await launch_browser(t);
  const { page, problems, csp_violations } = await open_page(browser, server);
  await sign_in(page, reseller.email, reseller.password, '/dashboard/webhooks?env=test');
  await settled(page);

  const listed = await page_fetch(page, 'GET', '/dashboard/api/webhooks?environment=test');
  t.same(listed.body?.data?.event_kinds, accepted_kinds, 'the server lists exactly the kinds its schema accepts, in its order');
  t.same(listed.body?.data?.default_event_kinds, api_default, 'and as the default exactly what the API gives an endpoint without events');

  // The register form: one checkbox per kind, in the server's order, the default ones checked.
  const form = page.locator('form[aria-labelledby="register-title"]');
  await form.waitFor();
  const offered = await form.locator('input[name="events"]').evaluateAll((inputs) => inputs.map((input) => [(input as any).value, (input as any).checked]));
  t.same(offered.map(([kind]) => kind), accepted_kinds, 'the register form offers every kind the API accepts');
  t.same(offered.filter(([, checked]) => checked).map(([kind]) => kind), api_default, 'with the API\'s default kinds checked');
  t.ok(await shows(form.locator('label', { hasText: 'service.status_changed' }).getByText('(only when chosen)')), 'service.status_changed says it is sent only when chosen');
  t.same(await unnamed_controls(page), [], 'every control of the form has a name');

  // Register with every kind: the endpoint receives all of them and the row says "All events".
  await form.getByLabel('HTTPS URL').fill(receiver.url);
  await form.getByLabel('service.status_changed').check();
  const [created] = await Promise.all([api_response(page, 'POST', '/webhooks'), form.getByRole('button', { name: 'Register endpoint' }).click()]);
  t.equal(created.status(), 201, 'the server registered the endpoint');
  await page.getByRole('button', { name: 'I have saved it' }).click();
  const endpoint_id = (await created.json()).data.id as number;
  const api_events = async () => (await server.api('GET', '/v1/webhooks', { key: reseller.key })).body.data.webhooks.find((w: { id: number }) => w.id === endpoint_id).events;
  t.same(await api_events(), accepted_kinds, 'the API sees every kind, service.status_changed and wallet.low_balance included');
  const row = page.getByTestId('endpoints-table').locator(`tr[data-endpoint-id="${endpoint_id}"]`);
  t.ok(await shows(row.locator('td[data-label="Events"]', { hasText: 'All events' })), 'the row says the endpoint receives all events');

  // The edit dialog offers the same kinds; leaving service.status_changed out gives the default again.
  await row.getByRole('button', { name: 'Edit events' }).click();
  const dialog = page.getByRole('dialog', { name: 'Events for this endpoint' });
  await dialog.waitFor();
  const editable = await dialog.locator('input[name="edit_events"]').evaluateAll((inputs) => inputs.map((input) => [(input as any).value, (input as any).checked]));
  t.same(editable, accepted_kinds.map((kind) => [kind, true]), 'the edit dialog offers every kind, all checked for this endpoint');
  await dialog.getByLabel('service.status_changed').uncheck();
  await dialog.getByLabel('wallet.low_balance').uncheck();
  await dialog.getByLabel('wallet.low_balance').check();
  const [edited] = await Promise.all([api_response(page, 'PATCH', `/webhooks/${endpoint_id}`), dialog.getByRole('button', { name: 'Save events' }).click()]);
  t.equal(edited.status(), 200, 'the server saved the events');
  t.same(await api_events(), api_default, 'the endpoint now has the default kinds, in the API\'s order although wallet.low_balance was ticked last');
  t.same(problems, [], 'no script errors in the page');
  t.same(csp_violations, [], 'no Content-Security-Policy violations');
});
