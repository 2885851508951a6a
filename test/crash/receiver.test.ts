// The crash campaign's webhook receiver (test/crash/receiver.ts) answers from its own thread: requests sent
// while the test's event loop is blocked (as the campaign's synchronous store checks block it) are answered
// at once, and reach the test afterwards. Its signature checks, written out again for the worker, agree
// with the suite's (test/helpers/webhook-receiver.ts) on good and bad signatures of both schemes.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ca_path, verify_service_signature, verify_standard_signature } from '../helpers/webhook-receiver.js';
import { CrashReceiver, first_attempt_failure_ratio } from './receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fails_first = (id: string) => createHash('sha256').update(id).digest()[0] < 256 * first_attempt_failure_ratio;

function event_id(fail_first: boolean): string {
  for (;;) {
    const id = `evt_${randomBytes(8).toString('hex')}`;
    if (fails_first(id) === fail_first) return id;
  }
}

interface Sent { tag: string; headers: Record<string, string>; body: string }

function signed(tag: string, secret: string, id: string, body: string, spoil: 'none' | 'service' | 'standard' | 'headers'): Sent {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const service = 'sha256=' + createHmac('sha256', spoil === 'service' ? 'wrong' : secret).update(body).digest('hex');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const standard = 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${spoil === 'standard' ? body + ' ' : body}`).digest('base64');
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-service-signature': service, 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,bm90IHRoaXMgb25l ${standard}` };
  if (spoil === 'headers') delete headers['webhook-signature'];
  return { tag, headers, body };
}

t.test('the receiver answers while the test is blocked, and checks signatures as the suite does', async (t) => {
  const receiver = new CrashReceiver();
  await receiver.start();
  t.teardown(() => receiver.stop());
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  await receiver.set_secret('a1-live', secret);
  const body = JSON.stringify({ event: 'transaction.successful', data: { reference: 'r-1' } });
  const good = event_id(false);
  const once_failed = event_id(true);
  const requests: Sent[] = [
    signed('a1-live', secret, good, body, 'none'),
    signed('a1-live', secret, once_failed, body, 'none'),
    signed('a1-live', secret, once_failed, body, 'none'),
    signed('a1-live', secret, event_id(false), body, 'service'),
    signed('a1-live', secret, event_id(false), body, 'standard'),
    signed('a1-live', secret, event_id(false), body, 'headers'),
    signed('other', secret, event_id(false), body, 'none'),
  ];
  // spawnSync blocks this thread's event loop for as long as the child runs: only a receiver on another
  // thread can answer the child's requests.
  const script = `
    const https = require('node:https');
    const ca = require('node:fs').readFileSync(process.argv[1]);
    const requests = JSON.parse(process.argv[2]);
    (async () => {
      const out = [];
      for (const r of requests) {
        out.push(await new Promise((resolve) => {
          const req = https.request({ host: 'localhost', port: ${receiver.port}, path: '/hooks/' + r.tag, method: 'POST', headers: r.headers, ca, timeout: 3000 }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); });
          req.on('timeout', () => { req.destroy(); resolve('timeout'); });
          req.on('error', (e) => resolve(e.code || 'error'));
          req.end(r.body);
        }));
      }
      console.log(JSON.stringify(out));
    })();`;
  const child = spawnSync(process.execPath, ['-e', script, ca_path, JSON.stringify(requests)], { encoding: 'utf8', timeout: 30_000 });
  t.equal(child.status, 0, `the client ran (${child.stderr})`);
  t.same(JSON.parse(child.stdout), [200, 500, 200, 400, 400, 400, 400], 'every request answered while the test was blocked: good 200, a first attempt 500 then 200, bad signatures 400, an unknown endpoint 400');
  const deadline = Date.now() + 5_000;
  while (receiver.received.length < requests.length && Date.now() < deadline) await sleep(20);
  t.equal(receiver.received.length, requests.length, 'every request reached the test afterwards');
  for (const [i, r] of receiver.received.entries()) {
    const sent = requests[i]!;
    const known = sent.tag === 'a1-live' ? secret : '';
    t.equal(r.service_signature_ok, verify_service_signature(known, sent.body, sent.headers['x-service-signature']), `request ${i}: service signature judged as the suite judges it (${r.service_signature_ok})`);
    t.equal(r.standard_signature_ok, verify_standard_signature(known, sent.headers['webhook-id'], sent.headers['webhook-timestamp'], sent.body, sent.headers['webhook-signature']), `request ${i}: standard signature judged as the suite judges it (${r.standard_signature_ok})`);
  }
  t.same([...receiver.acknowledged_ids()].sort(), [good, once_failed].sort(), 'acknowledged: the good event and the one whose first attempt failed');
  t.ok(receiver.received.every((r) => r.at_ms >= receiver.received[0]!.at_ms && r.at_ms <= receiver.last_request_ms), 'stamped by the worker, last_request_ms the latest');
});
