// IP addresses and CIDR blocks for key allowlists and trusted proxies (src/lib/ip-address.ts; spec
// section 5.7). Addresses are 16 bytes, IPv4 as ::ffff:a.b.c.d, so one matcher serves both families.
import t from 'tap';
import { parse_ip, parse_cidr, cidr_contains, any_contains, embedded_ipv4 } from '../src/lib/ip-address.js';
import { is_internal_address } from '../src/webhooks/target-check.js';

function hex(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : Buffer.from(bytes).toString('hex');
}

const v4_prefix = '00000000000000000000ffff';

t.test('parse_ip reads IPv4 and IPv6 addresses into 16 bytes', async (t) => {
  const rows: [string, string][] = [
    ['127.0.0.1', `${v4_prefix}7f000001`],
    ['0.0.0.0', `${v4_prefix}00000000`],
    ['255.255.255.255', `${v4_prefix}ffffffff`],
    ['10.1.2.3', `${v4_prefix}0a010203`],
    ['::1', '00000000000000000000000000000001'],
    ['::', '00000000000000000000000000000000'],
    ['::ffff:1.2.3.4', `${v4_prefix}01020304`],
    ['::ffff:7f00:1', `${v4_prefix}7f000001`],
    ['2001:db8::1', '20010db8000000000000000000000001'],
    ['2001:db8::', '20010db8000000000000000000000000'],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '20010db8000000000000ff0000428329'],
    ['2001:DB8:0:0:0:FF00:42:8329', '20010db8000000000000ff0000428329'],
    ['fe80::1:2', 'fe800000000000000000000000010002'],
    ['1::', '00010000000000000000000000000000'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
    ['1:2:3:4:5:6:1.2.3.4', '00010002000300040005000601020304'],
    ['2001:db8::1.2.3.4', '20010db8000000000000000001020304'],
  ];
  for (const [text, expected] of rows) t.equal(hex(parse_ip(text)), expected, `${text} is ${expected}`);
});

t.test('parse_ip refuses what is not an address', async (t) => {
  const rows = ['', 'localhost', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1.2.3.-4', '01.2.3.4', ' 1.2.3.4', '1.2.3.4 ', '1.2.3.4/8', ':::1', '1::2::3', '2001:db8::g', '1:2:3:4:5:6:7:8:9', '::ffff:256.1.1.1', '12345::1'];
  for (const text of rows) t.equal(parse_ip(text), null, `${JSON.stringify(text)} is not an address`);
});

t.test('parse_cidr reads addresses and blocks with their prefix in 128-bit terms', async (t) => {
  const rows: [string, string, number][] = [
    ['10.0.0.0/8', `${v4_prefix}0a000000`, 104],
    ['0.0.0.0/0', `${v4_prefix}00000000`, 96],
    ['1.2.3.4/32', `${v4_prefix}01020304`, 128],
    ['1.2.3.4', `${v4_prefix}01020304`, 128],
    ['::1', '00000000000000000000000000000001', 128],
    ['::1/128', '00000000000000000000000000000001', 128],
    ['::/0', '00000000000000000000000000000000', 0],
    ['2001:db8::/32', '20010db8000000000000000000000000', 32],
    ['::ffff:1.2.3.4', `${v4_prefix}01020304`, 128],
  ];
  for (const [text, bytes, bits] of rows) {
    const block = parse_cidr(text);
    t.ok(block !== null, `${text} parses`);
    t.equal(hex(block?.bytes ?? null), bytes, `${text} has address ${bytes}`);
    t.equal(block?.prefix_bits, bits, `${text} has a ${bits}-bit prefix`);
  }
});

t.test('parse_cidr refuses bad prefixes and bad addresses', async (t) => {
  const rows = ['10.0.0.0/33', '::1/129', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/8/8', '10.0.0.0/a', '10.0.0.0/1000', 'x/8', '/8', '', '300.0.0.0/8', '2001:db8::/ 32'];
  for (const text of rows) t.equal(parse_cidr(text), null, `${JSON.stringify(text)} is not a block`);
});

t.test('cidr_contains matches addresses inside a block and nothing else', async (t) => {
  const rows: [string, string, boolean][] = [
    ['10.0.0.0/8', '10.0.0.0', true],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '9.255.255.255', false],
    ['10.1.2.3/8', '10.9.9.9', true],
    ['172.16.0.0/12', '172.31.255.255', true],
    ['172.16.0.0/12', '172.32.0.0', false],
    ['192.168.1.0/24', '192.168.1.77', true],
    ['192.168.1.0/24', '192.168.2.1', false],
    ['0.0.0.0/0', '1.2.3.4', true],
    ['0.0.0.0/0', '255.255.255.255', true],
    ['0.0.0.0/0', '::1', false],
    ['0.0.0.0/0', '2001:db8::1', false],
    ['1.2.3.4/32', '1.2.3.4', true],
    ['1.2.3.4/32', '1.2.3.5', false],
    ['1.2.3.4', '::ffff:1.2.3.4', true],
    ['127.0.0.0/8', '127.0.0.1', true],
    ['::1/128', '::1', true],
    ['::1/128', '127.0.0.1', false],
    ['::1', '::2', false],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:0db8:0000:0000:0000:ff00:0042:8329', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['2001:db8::/33', '2001:db8:7fff::', true],
    ['2001:db8::/33', '2001:db8:8000::', false],
    ['::/0', '1.2.3.4', true],
    ['::/0', 'ffff::1', true],
    ['::ffff:0:0/96', '8.8.8.8', true],
  ];
  for (const [block_text, address_text, inside] of rows) {
    const block = parse_cidr(block_text);
    const address = parse_ip(address_text);
    if (block === null || address === null) {
      t.fail(`${block_text} and ${address_text} should both parse`);
      continue;
    }
    t.equal(cidr_contains(block, address), inside, `${block_text} ${inside ? 'contains' : 'does not contain'} ${address_text}`);
  }
});

t.test('any_contains checks a list and refuses an unparsable address', async (t) => {
  const blocks = ['10.0.0.0/8', '2001:db8::/32'].map((b) => parse_cidr(b)!);
  t.equal(any_contains(blocks, parse_ip('10.2.3.4')), true, 'an address in the first block matches');
  t.equal(any_contains(blocks, parse_ip('2001:db8::5')), true, 'an address in the second block matches');
  t.equal(any_contains(blocks, parse_ip('192.168.0.1')), false, 'an address in neither block does not match');
  t.equal(any_contains(blocks, null), false, 'an unparsable address never matches');
  t.equal(any_contains([], parse_ip('10.2.3.4')), false, 'an empty list matches nothing');
});

t.test('embedded_ipv4 finds the IPv4 address inside IPv4-compatible, translated, NAT64, 6to4 and Teredo addresses', async (t) => {
  const rows: [string, string[]][] = [
    ['::127.0.0.1', ['127.0.0.1']],
    ['::7f00:1', ['127.0.0.1']],
    ['::1', ['0.0.0.1']],
    ['::ffff:0:10.1.2.3', ['10.1.2.3']],
    ['64:ff9b::7f00:1', ['127.0.0.1']],
    ['64:ff9b::8.8.8.8', ['8.8.8.8']],
    ['2002:7f00:1::', ['127.0.0.1']],
    ['2002:c0a8:101:1::5', ['192.168.1.1']],
    // Teredo: server 65.54.227.120, client 192.0.2.45 stored XORed (3fff:fdd2).
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', ['65.54.227.120', '192.0.2.45']],
    ['2001:0:4136:e378::80ff:fffe', ['65.54.227.120', '127.0.0.1']],
    ['2001:db8::1', []],
    ['2606:4700::1111', []],
    ['8.8.8.8', []],
  ];
  for (const [text, expected] of rows) {
    const found = embedded_ipv4(parse_ip(text)!).map((bytes) => bytes.subarray(12).join('.'));
    t.same(found, expected, `${text} embeds ${expected.join(', ') || 'nothing'}`);
  }
});

t.test('the webhook guard refuses an IPv6 address that embeds an internal IPv4 address (regression: [::127.0.0.1], NAT64, 6to4 were accepted)', async (t) => {
  const internal = [
    '::127.0.0.1', '::7f00:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:127.0.0.1', '::10.0.0.1',
    '64:ff9b::7f00:1', '64:ff9b::192.168.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::7f00:1', '64:ff9b:1:ffff::8.8.8.8',
    '2002:7f00:1::', '2002:a00:1::1', '2002:a9fe:a9fe::', '2001:0:4136:e378::80ff:fffe', '2001:0:7f00:1::1:1',
    '2001:0:4136:e378:8000:63bf:f5ff:fffe', '::', '::1', 'not an address',
  ];
  for (const address of internal) t.equal(is_internal_address(address), true, `${address} is refused`);
  const public_ones = ['8.8.8.8', '203.0.113.9', '64:ff9b::8.8.8.8', '2002:808:808::1', '2606:4700:4700::1111', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::ffff:8.8.8.8'];
  for (const address of public_ones) t.equal(is_internal_address(address), false, `${address} is allowed`);
});
