import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

// Secrets CM keeps in its database (webhook secrets, the generated token-signing secret) are stored
// encrypted, AES-256-GCM, with a key that is never in the database: CM_SECRETS_KEY, or else the file
// $CM_DATA_DIR/secrets.key (mode 0600) made on first start. A database backup or a read-only SQL
// foothold then yields no secret. Stored form: `cmenc:v1:` + base64url(iv ‖ tag ‖ ciphertext); what
// the value is for is bound in as additional data, so that one sealed value cannot stand for another.

const PREFIX = 'cmenc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SECRETS_KEY_BYTES = 32;
const KEY_FILE = 'secrets.key';

/** Why the secrets cannot be read: a key file that is not a key, or secrets sealed with another key. */
export class SecretsKeyError extends Error {}

/** Seals and opens the secrets CM stores, with one key. */
export class SecretBox {
  /** `source` says where the key came from, for error messages. */
  constructor(
    private readonly key: Buffer,
    readonly source: string,
  ) {
    if (key.length !== SECRETS_KEY_BYTES) throw new SecretsKeyError(`${source} is not a 32-byte key.`);
  }

  /** What every sealed value starts with. */
  static readonly prefix = PREFIX;

  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** `clear` encrypted for storage; `purpose` names what it is (it must be given again to open it). */
  seal(clear: string, purpose: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(purpose));
    const data = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The clear secret. A value stored before secrets were encrypted (no prefix) is answered as it is. */
  open(stored: string, purpose: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(purpose))
        .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretsKeyError(
        `The secrets in the database were encrypted with another key than ${this.source}. Start Check Meter with the key they were encrypted with (CM_SECRETS_KEY, or the ${KEY_FILE} file of the data folder that made them).`,
      );
    }
  }
}

/** The key: `fromEnv` (CM_SECRETS_KEY, base64), or the data folder's key file, made on first start. */
export async function openSecretBox(fromEnv: string | undefined, dataDir: string): Promise<SecretBox> {
  if (fromEnv) return new SecretBox(Buffer.from(fromEnv, 'base64'), 'CM_SECRETS_KEY');
  const file = path.join(dataDir, KEY_FILE);
  await mkdir(dataDir, { recursive: true });
  // Written beside it and linked into place: processes sharing the folder agree on the first key.
  const draft = `${file}.${process.pid}.new`;
  await writeFile(draft, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  await link(draft, file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  await rm(draft, { force: true });
  await chmod(file, 0o600);
  const text = (await readFile(file, 'utf8')).trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new SecretsKeyError(`${file} does not hold a base64 key.`);
  return new SecretBox(Buffer.from(text, 'base64'), file);
}
