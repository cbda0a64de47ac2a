import { createHash, randomBytes } from 'node:crypto'

// The secrets the server hands out (operators' sessions and one-time links, billboards' player
// tokens): each is 256 random bits, shown once, and stored only as its SHA-256 (briefing
// "Security"). Random secrets need no salt nor a slow hash: a stolen table gives no usable secret.

/** A new secret: 32 random bytes (256 bits), URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url')

/** The SHA-256 of a secret, in hex, as it is stored and looked up. */
export const secretHash = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex')
