// The demo (docs/operations.md DEMO): on an empty store, `npm start` seeds a demo account with a funded test
// wallet and prints its test key, PIN and dashboard login once, on stderr (never into the JSON log).
import type { Deps } from '../front/deps.js';
import { random_base62, random_text } from '../lib/ids.js';
import { create_key_reply } from '../front/routes/key-routes.js';
import { fail } from '../lib/assert.js';
import { refusal_error } from '../front/outcome-errors.js';

export const demo_email = 'demo@billvend.test';
export const demo_funding_kobo = 1_000_000_00;

export async function seed_demo(deps: Deps, public_url: string): Promise<void> {
  const password = random_base62(deps.random, 16);
  const pin = random_text(deps.random, '0123456789', 5);
  // Through the lanes, like every scrypt of a server (lib/secrets.ts); they are empty before traffic.
  const [password_hash, pin_hash] = await Promise.all([deps.hash_lanes.password.hash(password), deps.hash_lanes.pin.hash(pin)]);
  if (password_hash === 'busy' || pin_hash === 'busy') fail('the hash lanes are full before the server takes traffic');
  const created = deps.engine.create_account({
    name: 'Demo Reseller',
    email: demo_email,
    phone: '+2348011111111',
    tier: 'standard',
    kyc_level: 2,
    password_hash,
    pin_hash,
  });
  if (!created.ok) {
    deps.log.warn({ code: refusal_error(created.refused).code }, 'demo account not created');
    return;
  }
  const actor = created.value;
  const reply = create_key_reply(deps, actor, 'demo', {
    name: 'Demo sandbox key',
    environment: 'test',
    scopes: ['*'],
    ip_allowlist: [],
    rate_limit_per_minute: 600,
    expires_ms: null,
  });
  const api_key = (JSON.parse(reply.body as string) as { data: { api_key: string } }).data.api_key;
  const credited = deps.engine.run(actor, { kind: 'credit', environment: 'test', amount_kobo: demo_funding_kobo, reference: 'DEMO-FUNDING-1', description: 'Demo sandbox funding' }, deps.clock.now_us());
  if (!credited.ok) fail('demo credit refused');
  await actor.settled();
  // The two lines to paste are exactly the shell assignments README.md "A first purchase" asks for, alone on
  // their lines with nothing before them, so a newcomer copies them as they are (test/readme.test.ts does).
  const lines = [
    '',
    '==================== billvend demo (shown once) ====================',
    ` API:        ${public_url}/v1   (docs: ${public_url}/docs)`,
    ` Dashboard:  ${public_url}/dashboard   login ${demo_email} / ${password}`,
    ' Wallet:     NGN 1,000,000.00 of sandbox money',
    ' Test key and transaction PIN: paste these two lines into your shell,',
    ' then follow README.md "A first purchase":',
    '',
    `KEY=${api_key}`,
    `PIN=${pin}`,
    '',
    ` Try:        curl -s ${public_url}/v1/wallet -H "Authorization: Bearer $KEY"`,
    '====================================================================',
    '',
  ];
  process.stderr.write(lines.join('\n') + '\n');
}
