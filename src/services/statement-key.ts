// The platform's statement signing key (docs/decisions.md "Statements"): one Ed25519 key pair, made once
// on the first start and kept in the store's meta database: the public key in SPKI PEM, the private key
// in PKCS#8 PEM sealed with the store's secret box (AES-256-GCM under the master key), never in plain text
// at rest or in a log. It is written through the journal, so a cluster's standby holds the same key and
// statements signed before a take-over still verify after it.
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Journal } from '../journal/journal.js';
import type { Store } from '../journal/store.js';
import type { SecretBox } from '../lib/secrets.js';
import { fail } from '../lib/assert.js';

/** The meta key the record lives under. */
export const statement_key_meta = 'statement_signing_key';

export interface StatementKeyRecord {
  algorithm: 'ed25519';
  public_key_pem: string;
  /** PKCS#8 PEM, sealed (lib/secrets.ts SecretBox). */
  private_key_sealed: string;
  created_us: number;
}

export function assert_statement_key(record: StatementKeyRecord): void {
  if (record.algorithm !== 'ed25519') fail('statement key algorithm');
  if (!record.public_key_pem.startsWith('-----BEGIN PUBLIC KEY-----')) fail('statement public key is not SPKI PEM');
  if (!record.private_key_sealed.startsWith('v1.')) fail('statement private key is not sealed');
}

export class StatementSigner {
  private constructor(private readonly private_key: KeyObject, readonly public_key_pem: string) {}

  /**
   * The store's key, or a new one staged in the journal when the store has none (the first start).
   * The caller waits for the journal to be durable before serving.
   */
  static load_or_create(store: Store, journal: Journal, secret_box: SecretBox, now_us: number): StatementSigner {
    const stored = journal.read(store.meta, statement_key_meta) as StatementKeyRecord | undefined;
    if (stored !== undefined) {
      assert_statement_key(stored);
      const private_key = createPrivateKey(secret_box.open(stored.private_key_sealed));
      const signer = new StatementSigner(private_key, stored.public_key_pem);
      // The pair must belong together: a sealed key swapped for another would sign what the published key rejects.
      if (!verify(null, Buffer.from('check'), createPublicKey(stored.public_key_pem), Buffer.from(signer.sign(Buffer.from('check')), 'base64'))) fail('statement key pair does not match');
      return signer;
    }
    const pair = generateKeyPairSync('ed25519');
    const public_key_pem = pair.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const private_pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const record: StatementKeyRecord = { algorithm: 'ed25519', public_key_pem, private_key_sealed: secret_box.seal(private_pem), created_us: now_us };
    assert_statement_key(record);
    journal.put(0, store.meta, statement_key_meta, record);
    return new StatementSigner(pair.privateKey, public_key_pem);
  }

  /** Ed25519 over the exact bytes (64 bytes, base64). */
  sign(body: Buffer): string {
    return sign(null, body, this.private_key).toString('base64');
  }

  /** The header every statement carries: `Billvend-Signature: ed25519=<base64>`. */
  header(body: Buffer): [string, string] {
    return ['Billvend-Signature', `ed25519=${this.sign(body)}`];
  }
}
