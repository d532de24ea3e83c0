/**
 * The authenticated encryption of sealed `requestState` values: AES-256-GCM under a key derived
 * with HKDF-SHA-256 from the configured key material and a random salt per state. A fresh key
 * per state means no GCM nonce budget is ever spent on one configured key, however many states
 * replicas sharing it issue. WebCrypto only, and nothing random or cryptographic happens before
 * the first seal or open (Workers forbid both at global scope, where servers are often built).
 */

import { decodeBase64Url, encodeBase64Url } from '@twofold/protocol/experimental';

/** The first byte of every sealed token: its format. */
const FORMAT = 2;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + SALT_BYTES + IV_BYTES;
// Names this use of the key material: the same material used for anything else derives
// unrelated keys.
const INFO = new TextEncoder().encode('twofold/requestState/v2 aes-256-gcm');

type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** What a token holds once opened: its plaintext and the salt that names it (the nonce). */
export interface Unsealed {
  plaintext: Uint8Array;
  /** Unique per sealed state: the replay guard's key. */
  nonce: string;
}

/** Seals and opens byte strings with a key derived from one key material. */
export class Sealer {
  private base: Promise<CryptoKey> | undefined;

  /** `key`: the key material (random per instance when absent, made on first use). */
  constructor(private readonly key: Uint8Array | undefined) {}

  /** Encrypts `plaintext` into a token (base64url, no padding). */
  async seal(plaintext: Uint8Array): Promise<string> {
    const header = new Uint8Array(HEADER_BYTES);
    header[0] = FORMAT;
    crypto.getRandomValues(header.subarray(1));
    const salt = header.subarray(1, 1 + SALT_BYTES);
    const iv = header.subarray(1 + SALT_BYTES);
    const key = await this.derive(salt, 'encrypt');
    const sealed = await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: header },
      key,
      plaintext,
    );
    const bytes = new Uint8Array(HEADER_BYTES + sealed.byteLength);
    bytes.set(header);
    bytes.set(new Uint8Array(sealed), HEADER_BYTES);
    return encodeBase64Url(bytes);
  }

  /**
   * Decrypts a token: `'malformed'` when it is not one of ours in shape, `'forged'` when it
   * fails authentication (tampered, truncated, or sealed under another key).
   */
  async open(token: string): Promise<Unsealed | 'malformed' | 'forged'> {
    const bytes = decodeBase64Url(token);
    if (bytes === undefined || bytes.length < HEADER_BYTES + TAG_BYTES || bytes[0] !== FORMAT) {
      return 'malformed';
    }
    const header = bytes.subarray(0, HEADER_BYTES);
    const salt = header.subarray(1, 1 + SALT_BYTES);
    const iv = header.subarray(1 + SALT_BYTES);
    const key = await this.derive(salt, 'decrypt');
    try {
      const plaintext = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: header },
        key,
        bytes.subarray(HEADER_BYTES),
      );
      return { plaintext: new Uint8Array(plaintext), nonce: encodeBase64Url(salt) };
    } catch {
      return 'forged';
    }
  }

  private derive(salt: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
    this.base ??= crypto.subtle.importKey(
      'raw',
      this.key ?? crypto.getRandomValues(new Uint8Array(32)),
      'HKDF',
      false,
      ['deriveKey'],
    );
    return this.base.then((base) =>
      crypto.subtle.deriveKey(
        { name: 'HKDF', hash: 'SHA-256', salt, info: INFO },
        base,
        { name: 'AES-GCM', length: 256 },
        false,
        [usage],
      ),
    );
  }
}
